"""A partition's vector log: its row (table ``vector_logs``), its chunks, and when to trust it.

Each partition (agent, scope, owner) has at most one log per type (float16 or float32, as a
search holds its vectors). The row says in which space its rows are, up to which fact stamp
they bring the partition, and how many chunks and rows it has; the chunks (table
``vector_chunks``, numbered from 0) hold the entries of ``chunks.Entry``. Row and chunks move
in the same write transaction as the facts (``log_writes``), so a log never disagrees with
the facts it follows: the database's commit is the only protocol.

The searcher reads logs (``log_reads``), the writer writes them (``log_writes`` over
``log_appends`` and ``log_builds``); this module is what they share.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import KeyCols, placeholders
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_int
from eden_memory.adapters.stores.sqlite.vectors.chunks import Entry, encode_ids
from eden_memory.domain.embedding_space import EmbeddingSpace

WHERE_KEY = "agent_id = ? AND scope = ? AND owner = ?"
WHERE_LOG = f"{WHERE_KEY} AND dtype = ?"
DTYPES = ("float16", "float32")
_COLUMNS = "agent_id, scope, owner, dtype, model, dim, seq, chunks, written"


@dataclass(frozen=True)
class LogRow:
    key: KeyCols
    dtype: str
    model: str
    dim: int
    seq: int  # the partition's fact stamp its chunks bring it to
    chunks: int  # chunk rows, numbered 0 to chunks - 1
    written: int  # rows in them, live or since replaced or removed

    @property
    def log(self) -> tuple[str, str, str, str]:
        """The parameters of ``WHERE_LOG``."""
        return (*self.key, self.dtype)

    @property
    def type(self) -> type[np.floating]:
        return np.dtype(self.dtype).type

    def holds(self, space: EmbeddingSpace) -> bool:
        return (self.model, self.dim) == (space.model, space.dimension)


def empty_log(key: KeyCols, dtype: str, space: EmbeddingSpace, seq: int) -> LogRow:
    return LogRow(key, dtype, space.model, space.dimension, seq, 0, 0)


def log_row(conn: sqlite3.Connection, key: KeyCols, dtype: str) -> LogRow | None:
    found = conn.execute(
        f"SELECT {_COLUMNS} FROM vector_logs WHERE {WHERE_LOG}", (*key, dtype)
    ).fetchone()
    return None if found is None else decode_row(found)


def logs_of(conn: sqlite3.Connection, key: KeyCols) -> list[LogRow]:
    """The partition's logs, of every type."""
    found = conn.execute(f"SELECT {_COLUMNS} FROM vector_logs WHERE {WHERE_KEY}", key)
    return [decode_row(row) for row in found.fetchall()]


def every_log(conn: sqlite3.Connection) -> list[LogRow]:
    return [decode_row(row) for row in conn.execute(f"SELECT {_COLUMNS} FROM vector_logs")]


def decode_row(found: Sequence[Any]) -> LogRow:
    """A row, checked: one that does not decode is named, never followed to its chunks."""
    key: KeyCols = (found[0], found[1], found[2])
    row = LogRow(key, *found[3:])
    ints = (row.dim, row.seq, row.chunks, row.written)
    if (
        row.dtype not in DTYPES
        or not all(isinstance(v, str) for v in (*key, row.model))
        or not all(type(v) is int and v >= 0 for v in ints)
    ):
        raise Undecodable("vector_logs", key, "a column holds a value of another type")
    return row


def usable(conn: sqlite3.Connection, row: LogRow, space: EmbeddingSpace | None, now: int) -> bool:
    """Of the store's space, and either current (the partition's stamp is still ``now``) or
    no older than the kept tombstones (the removals since are known)."""
    if space is None or not row.holds(space):
        return False
    if row.seq == now:
        return True
    (floor,) = conn.execute("SELECT value FROM counters WHERE name = 'tombstone_floor'").fetchone()
    return row.seq >= as_int(floor, "counters", "tombstone_floor")


def save_row(conn: sqlite3.Connection, row: LogRow) -> None:
    conn.execute(
        f"INSERT OR REPLACE INTO vector_logs ({_COLUMNS}) VALUES ({placeholders(9)})",
        (*row.log, row.model, row.dim, row.seq, row.chunks, row.written),
    )


def insert_chunk(conn: sqlite3.Connection, row: LogRow, chunk_no: int, entry: Entry) -> None:
    conn.execute(
        "INSERT INTO vector_chunks (agent_id, scope, owner, dtype, chunk_no, count, removed, "
        "ids, rows) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            *row.log,
            chunk_no,
            len(entry.ids),
            encode_ids(entry.removed),
            encode_ids(entry.ids),
            np.ascontiguousarray(entry.rows).tobytes(),
        ),
    )


def delete_chunks(conn: sqlite3.Connection, row: LogRow, from_no: int = 0) -> None:
    conn.execute(
        f"DELETE FROM vector_chunks WHERE {WHERE_LOG} AND chunk_no >= ?", (*row.log, from_no)
    )


def drop(conn: sqlite3.Connection, log: tuple[Any, ...]) -> None:
    """Forget a log (``log``: its ``WHERE_LOG`` parameters): a search reads the fact rows."""
    conn.execute(f"DELETE FROM vector_chunks WHERE {WHERE_LOG}", log)
    conn.execute(f"DELETE FROM vector_logs WHERE {WHERE_LOG}", log)


def partition_seq(conn: sqlite3.Connection, key: KeyCols) -> int:
    found = conn.execute(f"SELECT fact_seq FROM scope_state WHERE {WHERE_KEY}", key).fetchone()
    return as_int(found[0], "scope_state", key) if found else 0
