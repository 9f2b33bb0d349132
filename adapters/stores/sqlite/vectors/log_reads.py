"""The searcher's side of the vector logs: a partition as its log holds it.

A search loads a partition from its log when the log's row vouches for it; when there is no
log of the search's type, or it is of another space, too old or damaged, the search reads the
fact rows instead, and asks the writer to mend the log (``log_writes.mend``). This
module only reads: it imports nothing of the writer's.

A chunk's rows are read through SQLite's incremental blob I/O, a piece at a time, into the
partition's buffer: selecting the column instead copies them twice more, and took twice as
long on a partition of 82k rows (docs/record/decisions/stores.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from functools import partial

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.decoding import Undecodable
from eden_memory.adapters.stores.sqlite.vectors.chunks import DamagedChunk, Fill, Log, replay
from eden_memory.adapters.stores.sqlite.vectors.logs import WHERE_LOG, LogRow, log_row, usable
from eden_memory.domain.embedding_space import EmbeddingSpace

_PIECE = 1 << 20


def load(
    conn: sqlite3.Connection, key: KeyCols, dtype: str, space: EmbeddingSpace, seq: int
) -> tuple[LogRow | None, Log | None]:
    """The partition as its log holds it, with the log's row; no log if none is usable.

    Call inside a read transaction; ``seq``: the partition's stamp now, in it.
    """
    try:
        row = log_row(conn, key, dtype)
    except Undecodable:
        return None, None
    if row is None or not usable(conn, row, space, seq):
        return row, None
    try:
        return row, replay(_chunks(conn, row), row.written, row.dim, row.type)
    except DamagedChunk:
        return row, None


def _chunks(conn: sqlite3.Connection, row: LogRow) -> Iterator[tuple[object, object, object, Fill]]:
    """Each chunk's removed ids, ids, count and what reads its rows, in log order."""
    found = conn.execute(
        f"SELECT rowid, removed, ids, count FROM vector_chunks WHERE {WHERE_LOG} ORDER BY chunk_no",
        row.log,
    ).fetchall()
    for rowid, removed, ids, count in found:
        yield removed, ids, count, partial(_read_rows, conn, rowid)


def _read_rows(conn: sqlite3.Connection, rowid: int, out: memoryview) -> None:
    """A chunk's rows into ``out``, a piece at a time: pieces of a few hundred KB reuse the
    same memory, where a whole chunk's bytes at once is fresh memory the system must map."""
    try:
        with conn.blobopen("vector_chunks", "rows", rowid, readonly=True) as blob:
            if len(blob) != len(out):
                raise DamagedChunk("a chunk's rows are not as many as its ids")
            for at in range(0, len(out), _PIECE):
                piece = blob.read(_PIECE)
                out[at : at + len(piece)] = piece
    except sqlite3.Error as exc:  # not a blob, or not there
        raise DamagedChunk("a chunk's rows do not read") from exc
