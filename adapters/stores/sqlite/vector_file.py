"""The bytes of a partition's vector file: a header, then a log of chunks.

A chunk says which facts left the partition and which rows were written (a fact written
again replaces its row), stamped with the fact stamp it brings the partition to. Reading
the log in order gives the partition's unit rows at the last stamp, in the type the search
keeps them (float16 or float32), so opening a store reads one file in a few system calls
instead of decoding every fact row. Each chunk carries a CRC of its ids and rows: a chunk
torn by a power loss is found, and the file is then rebuilt from the fact rows.

The file never says how much of it is valid, nor which chunks: its SQLite row does
(``vector_files``), in the same transaction as the facts. Bytes past that length are a write
that did not commit and are overwritten by the next append. The row's ``digest`` chains the
header of every chunk in the valid bytes (``link``), and each header holds a random nonce and
the CRC of its chunk. Vector files are not synced to disk, so a power loss may keep a commit
in the database while the file keeps the bytes a writer that died before its own commit
left at the same place: a chunk of the same length, with a valid CRC and even the same stamp
(the counter rolled back). Only the digest tells it from the committed one.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from io import FileIO
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eden_memory.adapters.stores.sqlite.partition import Rows

_HEADER = struct.Struct("<8s16sII32x")  # magic, token, dimension, bytes per value
_CHUNK = struct.Struct("<4s8sqIIII")  # magic, nonce, stamp, removed, written, id bytes, crc
# Version 2 (schema 9) added the nonce and the row's digest; a version-1 file is rebuilt.
_MAGIC, _CHUNK_MAGIC = b"EDENVEC2", b"CHNK"
DIGEST_BYTES = 16
HEADER_BYTES = _HEADER.size
_SEP = "\x00"
Buffer = bytes | memoryview


class DamagedFile(Exception):
    """The file does not hold what its SQLite row says: rebuild it from the rows."""


@dataclass(frozen=True)
class VectorFolder:
    """Where a store keeps its vector files, and the type new ones hold (its search's)."""

    path: Path
    dtype: type[np.floating]

    @property
    def dtype_name(self) -> str:
        return np.dtype(self.dtype).name


@dataclass(frozen=True)
class Layout:
    token: bytes  # 16 random bytes naming this file; a rebuilt file has a new one
    dim: int
    dtype: type[np.floating]


@dataclass
class Log:
    """What a file's valid prefix holds, replayed."""

    seq: int
    ids: list[str]
    rows: Rows
    written: int  # rows in the file, including those replaced or removed since
    chunks: int = 0  # entries in the log: each costs a few system calls to read


def header(layout: Layout) -> bytes:
    return _HEADER.pack(_MAGIC, layout.token, layout.dim, np.dtype(layout.dtype).itemsize)


def link(digest: bytes, pieces: Sequence[Buffer]) -> bytes:
    """The digest of a file's chunks once the chunk of ``pieces`` (from ``chunk``) follows
    those of ``digest``; a new file's digest is its token."""
    return hashlib.blake2b(digest + bytes(pieces[0]), digest_size=DIGEST_BYTES).digest()


def writable_ids(ids: Sequence[str]) -> bool:
    """Ids are stored NUL-separated; one holding a NUL keeps its partition out of files."""
    return not any(_SEP in i for i in ids)


def chunk(seq: int, removed: Sequence[str], ids: Sequence[str], rows: Rows) -> list[Buffer]:
    """One log entry: ``removed`` leave, then ``ids`` are written with ``rows`` (C order).

    Returned as pieces, so a large matrix is written from its own memory, not copied.
    """
    names = _SEP.join([*removed, *ids]).encode()
    body = raw_bytes(np.ascontiguousarray(rows))
    crc = zlib.crc32(body, zlib.crc32(names))
    nonce = secrets.token_bytes(8)  # two chunks of the same content still differ
    head = _CHUNK.pack(_CHUNK_MAGIC, nonce, seq, len(removed), len(ids), len(names), crc)
    return [head, names, body]


def size(pieces: Sequence[Buffer]) -> int:
    return sum(len(p) for p in pieces)


def read_log(path: Path, layout: Layout, valid_bytes: int, written: int, digest: bytes) -> Log:
    """Replay the first ``valid_bytes`` of the file: ``written`` rows in chunks whose headers
    chain to ``digest``, as the file's row says."""
    with path.open("rb", buffering=0) as f:
        if f.read(HEADER_BYTES) != header(layout):
            raise DamagedFile("another file, or another layout")
        log, chained = _replay(f, layout, valid_bytes - HEADER_BYTES, written)
    if chained != digest:
        raise DamagedFile("the chunks are not those the file's row names")
    return log


def _replay(f: FileIO, layout: Layout, remaining: int, written: int) -> tuple[Log, bytes]:
    buffer: Rows = np.empty((written, layout.dim), dtype=layout.dtype)
    order: list[str] = []  # ids of the buffer's rows, in file order
    removals: list[tuple[int, list[str]]] = []  # (rows before the chunk, ids it removed)
    seq, at, chunks, digest = 0, 0, 0, layout.token
    while remaining > 0:
        raw = _exactly(f, _CHUNK.size)
        digest = link(digest, [raw])
        magic, _, seq, n_removed, n_written, n_bytes, crc = _CHUNK.unpack(raw)
        if magic != _CHUNK_MAGIC or at + n_written > written:
            raise DamagedFile("a chunk header does not match the file's row")
        names = _exactly(f, n_bytes)
        rows = buffer[at : at + n_written]
        _fill(f, rows)
        if zlib.crc32(raw_bytes(rows), zlib.crc32(names)) != crc:
            raise DamagedFile("a chunk's checksum does not match")
        listed = names.decode().split(_SEP) if n_bytes else []
        if n_removed:
            removals.append((at, listed[:n_removed]))
        order.extend(listed[n_removed:])
        at += n_written
        chunks += 1
        remaining -= _CHUNK.size + n_bytes + rows.nbytes
    if remaining != 0 or at != written or len(order) != written:
        raise DamagedFile("the chunks do not end where the file's row says")
    if not removals and len(set(order)) == written:  # every row is live: no dict per row
        return Log(seq, order, buffer, written, chunks), digest
    keep = live_rows(order, removals)
    return Log(seq, [order[i] for i in keep.tolist()], buffer[keep], written, chunks), digest


def live_rows(order: list[str], removals: list[tuple[int, list[str]]]) -> npt.NDArray[np.int64]:
    """The rows still live after replaying writes and removals in file order: an id's last
    row, unless a removal came after it."""
    live: dict[str, int] = {}
    pending = iter(removals)
    upcoming = next(pending, None)
    for row, fact_id in enumerate(order):
        while upcoming is not None and upcoming[0] == row:
            for gone in upcoming[1]:
                live.pop(gone, None)
            upcoming = next(pending, None)
        live[fact_id] = row
    while upcoming is not None:  # removals in chunks that wrote nothing after the last row
        for gone in upcoming[1]:
            live.pop(gone, None)
        upcoming = next(pending, None)
    return np.fromiter(sorted(live.values()), dtype=np.int64, count=len(live))


def _exactly(f: FileIO, size: int) -> bytes:
    data = f.read(size)
    if data is None or len(data) != size:
        raise DamagedFile("the file is shorter than its row says")
    return data


def _fill(f: FileIO, rows: Rows) -> None:
    """Read straight into the rows' memory (no intermediate copy of the bytes)."""
    view = raw_bytes(rows)
    done = 0
    while done < len(view):
        got = f.readinto(view[done:])
        if not got:
            raise DamagedFile("the file is shorter than its row says")
        done += got


def raw_bytes(rows: npt.NDArray[Any]) -> memoryview:
    """The bytes of contiguous ``rows``, as a writable view of their memory."""
    return rows.reshape(-1).view(np.uint8).data
