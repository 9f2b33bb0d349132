"""A partition's vectors as a log of chunks: what one chunk holds, replaying and merging them.

A chunk says which facts left the partition (``removed``), then which rows were written
(``ids``, with their unit rows in the type the search keeps; a fact written again replaces
its row). Replaying a partition's chunks in order gives its live rows, so opening a store
reads a few large rows instead of decoding every fact. Merging consecutive chunks into one
(``merge``) changes nothing a replay gives: the writer keeps a log of many small writes short
that way (``log_appends``). The chunks are rows of the store file, written in the same
transaction as the facts they follow; this module only encodes and decodes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from eden_memory.adapters.stores.sqlite.vectors.partition import Rows

# Rows of a chunk written whole (a build or a compaction). Loading 100k float16 rows of 384
# dimensions from chunks of this size is as fast as from a file (docs/record/decisions/stores.md).
CHUNK_ROWS = 4096
_SEP = "\x00"


class DamagedChunk(Exception):
    """A chunk row that does not decode: the partition is read from the fact rows instead."""


@dataclass(frozen=True)
class Entry:
    """One chunk: ``removed`` leave the partition, then ``ids`` are written with ``rows``."""

    removed: list[str]
    ids: list[str]
    rows: Rows


@dataclass
class Log:
    """A partition's log, replayed: its live ids and rows."""

    ids: list[str]
    rows: Rows
    written: int  # rows in the chunks, including those replaced or removed since


def writable_ids(ids: Sequence[str]) -> bool:
    """Ids are stored NUL-separated; one holding a NUL keeps its partition out of logs."""
    return not any(_SEP in i for i in ids)


def encode_ids(ids: Sequence[str]) -> bytes:
    return _SEP.join(ids).encode()


def decode_ids(blob: object) -> list[str]:
    if not isinstance(blob, bytes):
        raise DamagedChunk("an id list is not a blob")
    try:
        return blob.decode().split(_SEP) if blob else []
    except UnicodeDecodeError as exc:
        raise DamagedChunk("an id list is not UTF-8") from exc


def decode_rows(blob: object, count: object, dim: int, dtype: type[np.floating]) -> Rows:
    """A chunk's ``count`` rows, as a read-only view of ``blob``."""
    if type(count) is not int or count < 0:
        raise DamagedChunk("a chunk's row count is not a count")
    if not isinstance(blob, bytes) or len(blob) != count * dim * np.dtype(dtype).itemsize:
        raise DamagedChunk("a chunk's rows are not as many as its ids")
    rows: Rows = np.frombuffer(blob, dtype=dtype).reshape(count, dim)
    return rows


# Fills a chunk's place in the replay's buffer with its rows (raises ``DamagedChunk`` if it
# holds another number of bytes).
Fill = Callable[[memoryview], None]


def replay(
    chunks: Iterable[tuple[object, object, object, Fill]],
    written: int,
    dim: int,
    dtype: type[np.floating],
) -> Log:
    """The live rows of ``chunks`` (each: removed, ids, count, and what fills its rows),
    ``written`` in all, read into one buffer."""
    buffer: Rows = np.empty((written, dim), dtype=dtype)
    order: list[str] = []  # ids of the buffer's rows, in log order
    removals: list[tuple[int, list[str]]] = []  # (rows before the chunk, ids it removed)
    for removed_blob, ids_blob, count, fill in chunks:
        removed, ids = decode_ids(removed_blob), decode_ids(ids_blob)
        at = len(order)
        if count != len(ids) or at + len(ids) > written:
            raise DamagedChunk("a chunk holds another number of rows than its log says")
        fill(raw_bytes(buffer[at : at + len(ids)]))
        if removed:
            removals.append((at, removed))
        order.extend(ids)
    if len(order) != written:
        raise DamagedChunk("the chunks hold fewer rows than their log says")
    if not removals and len(set(order)) == written:  # every row is live: no dict per row
        return Log(order, buffer, written)
    keep = live_rows(order, removals)
    return Log([order[i] for i in keep.tolist()], buffer[keep], written)


def raw_bytes(rows: Rows) -> memoryview:
    """The bytes of contiguous ``rows``, as a writable view of their memory."""
    return rows.reshape(-1).view(np.uint8).data


def live_rows(order: list[str], removals: list[tuple[int, list[str]]]) -> npt.NDArray[np.int64]:
    """The rows still live after replaying writes and removals in log order: an id's last
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


def merge(entries: Sequence[Entry]) -> Entry:
    """One entry that replays as ``entries`` do, in order, after any chunks before them.

    Every id an entry removed stays removed from what came before (a later write puts it
    back); of the ids written, each keeps its last row, unless a later entry removed it.
    """
    removed: dict[str, None] = {}
    written: dict[str, int] = {}  # id -> its row among all the entries' rows
    at = 0
    for entry in entries:
        for gone in entry.removed:
            removed[gone] = None
            written.pop(gone, None)
        for row, fact_id in enumerate(entry.ids, at):
            written.pop(fact_id, None)  # keep log order: the id moves to its last write
            written[fact_id] = row
        at += len(entry.ids)
    every: Rows = np.concatenate([entry.rows for entry in entries])
    keep = np.fromiter(written.values(), dtype=np.int64, count=len(written))
    return Entry(list(removed), list(written), every[keep])
