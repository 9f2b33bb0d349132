"""Per-partition vector files: a cache of the fact rows' vectors that opens in one read.

The fact rows stay the truth; a file is only ever trusted through its row in
``vector_files``, which says, in the same transaction as the facts, which file (its random
token, also in the file's header), in which space, up to which fact stamp, how many of its
bytes are valid and which chunks they hold (a digest of their headers). So:

* **a write** appends one chunk to each file of the partitions it touched (``follow``, run
  by ``revisions.Changes.flush`` inside the write transaction) and moves the row. A crash
  before the commit leaves bytes past the valid length, which the next append overwrites.
  A write that only inserted active facts into a partition whose file was current appends
  the rows it holds (``Added``); any other change is read back from the rows;
* **a search** loading a partition reads its file (``load``), then replays the rows and
  tombstones stamped after the file's stamp, as it does for any partition it holds. A file
  that is missing, torn, holding chunks its row does not name (a write that never committed,
  restored by a power loss), of another space, or older than the kept tombstones is ignored:
  the partition is read from the rows and written to a new file (``snapshot``), which the
  writer adopts (``adopt``) only if the row still names the file the search saw;
* **a file with more dead rows than live ones** (deletions, edits) is rewritten the same way.

Another process sees the same rows, so any number of processes share the files.

The two sides run on different workers: ``vector_file_reads`` (``load``, ``snapshot``) on
the searcher, ``vector_file_writes`` (``follow``, ``adopt``, over ``vector_file_appends``)
on the writer. This module is what they agree on: the row, where its file lives, when the
row can be trusted, and the ``Snapshot`` one hands the other. It imports neither side.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_int
from eden_memory.adapters.stores.sqlite.vector_file import HEADER_BYTES, Layout, VectorFolder
from eden_memory.domain.embedding_space import EmbeddingSpace

WHERE_KEY = "agent_id = ? AND scope = ? AND owner = ?"
_DTYPES = ("float16", "float32")
COLUMNS = "agent_id, scope, owner, dtype, token, digest, model, dim, seq, bytes, written"


@dataclass(frozen=True)
class FileRow:
    key: KeyCols
    dtype: str
    token: bytes
    digest: bytes  # of the chunks in the valid prefix (``vector_file.link``)
    model: str
    dim: int
    seq: int  # the partition's fact stamp the valid prefix brings it to
    bytes: int  # the valid prefix
    written: int  # rows in that prefix, live or not

    @property
    def layout(self) -> Layout:
        return Layout(self.token, self.dim, np.dtype(self.dtype).type)


@dataclass(frozen=True)
class Snapshot:
    """A partition written to a temporary file by a search, for the writer to adopt."""

    temp: Path
    row: FileRow
    seen: bytes | None  # the token of the file the search found (None: no usable row)


def file_path(folder: VectorFolder, key: KeyCols, dtype: str) -> Path:
    digest = hashlib.sha256("\x00".join(key).encode()).hexdigest()[:40]
    return folder.path / f"{digest}.{dtype}"


def file_row(conn: sqlite3.Connection, key: KeyCols, dtype: str) -> FileRow | None:
    found = conn.execute(
        f"SELECT {COLUMNS} FROM vector_files WHERE {WHERE_KEY} AND dtype = ?", (*key, dtype)
    ).fetchone()
    return None if found is None else decode_row(found)


def decode_row(found: Sequence[Any]) -> FileRow:
    """A ``COLUMNS`` row, checked: a damaged one is named, never followed to a file."""
    key: KeyCols = (found[0], found[1], found[2])
    row = FileRow(key, *found[3:])
    text, blob = (row.dtype, row.model), (row.token, row.digest)
    ints = (row.dim, row.seq, row.bytes, row.written)
    if (
        row.dtype not in _DTYPES
        or not all(isinstance(v, str) for v in (*key, *text))
        or not all(isinstance(v, bytes) for v in blob)
        or not all(type(v) is int for v in ints)
    ):
        raise Undecodable("vector_files", key, "a column holds a value of another type")
    return row


def new_row(folder: VectorFolder, key: KeyCols, space: EmbeddingSpace, seq: int) -> FileRow:
    token = secrets.token_bytes(16)
    dim = space.dimension
    return FileRow(key, folder.dtype_name, token, token, space.model, dim, seq, HEADER_BYTES, 0)


def usable(conn: sqlite3.Connection, row: FileRow, space: EmbeddingSpace | None, now: int) -> bool:
    """Of the store's space, and either current (the partition's stamp is still ``now``) or
    no older than the kept tombstones (the removals since are known)."""
    if space is None or (row.model, row.dim) != (space.model, space.dimension):
        return False
    if row.seq == now:
        return True
    (floor,) = conn.execute("SELECT value FROM counters WHERE name = 'tombstone_floor'").fetchone()
    return row.seq >= as_int(floor, "counters", "tombstone_floor")
