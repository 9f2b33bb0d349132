"""The writer's side, one level down: one entry appended to a log, and its tail kept short.

A write appends one chunk to each log of each partition it touched. A partition written one
fact at a time would gain a chunk per write, and a log of many small chunks loads as slowly
as the fact rows; so once the last ``FAN`` chunks are all of one size class (fewer than
``FAN`` rows, fewer than ``FAN``², ... up to ``CHUNK_ROWS``), they are merged into one, which
may complete the class above. A row is rewritten at most three times on its way into a chunk
of ``CHUNK_ROWS`` (16, 256, 4,096), and a log keeps at most 45 smaller chunks after them.
Runs inside the caller's write transaction.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field, replace

import numpy as np

from eden_memory.adapters.stores.sqlite.decoding import vector_rows
from eden_memory.adapters.stores.sqlite.vectors.chunks import (
    CHUNK_ROWS,
    DamagedChunk,
    Entry,
    decode_ids,
    decode_rows,
    merge,
    writable_ids,
)
from eden_memory.adapters.stores.sqlite.vectors.logs import (
    WHERE_KEY,
    WHERE_LOG,
    LogRow,
    delete_chunks,
    insert_chunk,
    save_row,
)
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix, Rows, unit_rows

FAN = 16
_FULL = 3  # the class of a chunk of CHUNK_ROWS rows or more: never merged


@dataclass
class Added:
    """Active facts a write inserted into one partition, with their float32 rows."""

    ids: list[str] = field(default_factory=list)
    parts: list[Matrix] = field(default_factory=list)

    def extend(self, ids: list[str], rows: Matrix) -> None:
        self.ids.extend(ids)
        self.parts.append(rows)

    def entry(self, dtype: type[np.floating]) -> Entry:
        """Unit rows in the log's type, as ``changes_since`` would read them back."""
        joined = np.concatenate(self.parts) if len(self.parts) > 1 else self.parts[0].copy()
        rows: Rows = unit_rows(joined).astype(dtype)
        return Entry([], self.ids, rows)


def size_class(count: int) -> int:
    """0 below ``FAN`` rows, 1 below ``FAN``², 2 below ``CHUNK_ROWS``; ``_FULL`` from there."""
    if count >= CHUNK_ROWS:
        return _FULL
    level = 0
    while count >= FAN:
        count //= FAN
        level += 1
    return level


def append(conn: sqlite3.Connection, row: LogRow, seq: int, entry: Entry) -> LogRow | None:
    """Append ``entry``, stamped ``seq``; the moved row (saved), or None if the log cannot
    hold it (an id with a NUL: the caller drops the log). Raises ``DamagedChunk`` when a
    chunk to merge does not decode (the caller drops the log too)."""
    if not writable_ids(entry.removed) or not writable_ids(entry.ids):
        return None
    moved = replace(row, seq=seq)
    if entry.removed or entry.ids:
        insert_chunk(conn, row, row.chunks, entry)
        moved = replace(moved, chunks=row.chunks + 1, written=row.written + len(entry.ids))
        moved = _merge_tail(conn, moved)
    save_row(conn, moved)
    return moved


def _merge_tail(conn: sqlite3.Connection, row: LogRow) -> LogRow:
    while True:
        last = conn.execute(
            f"SELECT chunk_no, count FROM vector_chunks WHERE {WHERE_LOG} "
            "ORDER BY chunk_no DESC LIMIT ?",
            (*row.log, FAN),
        ).fetchall()
        if any(type(count) is not int for _, count in last):
            raise DamagedChunk("a chunk's row count is not a count")
        classes = {size_class(count) for _, count in last}
        if len(last) < FAN or len(classes) != 1 or _FULL in classes:
            return row
        first = int(last[-1][0])
        merged = merge(_entries(conn, row, first))
        delete_chunks(conn, row, first)
        insert_chunk(conn, row, first, merged)
        dropped = sum(count for _, count in last) - len(merged.ids)
        row = replace(row, chunks=first + 1, written=row.written - dropped)


def _entries(conn: sqlite3.Connection, row: LogRow, first: int) -> list[Entry]:
    found = conn.execute(
        f"SELECT removed, ids, rows FROM vector_chunks WHERE {WHERE_LOG} AND chunk_no >= ? "
        "ORDER BY chunk_no",
        (*row.log, first),
    )
    out = []
    for removed, ids_blob, blob in found:
        ids = decode_ids(ids_blob)
        out.append(Entry(decode_ids(removed), ids, decode_rows(blob, len(ids), row.dim, row.type)))
    return out


def changes_since(conn: sqlite3.Connection, row: LogRow) -> Entry:
    """What happened to the partition after ``row.seq``, as ``index`` replays it:
    tombstones leave, then each row written since is in (active, of the log's space) or out."""
    since = (*row.key, row.seq)
    removed = [
        r[0]
        for r in conn.execute(
            f"SELECT fact_id FROM fact_tombstones WHERE {WHERE_KEY} AND seq > ?", since
        )
    ]
    ids: list[str] = []
    blobs: list[bytes] = []
    for fact_id, status, model, dim, blob in conn.execute(
        f"SELECT id, status, vec_model, vec_dim, vector FROM facts WHERE {WHERE_KEY} AND seq > ?",
        since,
    ):
        if status == "active" and model == row.model and dim == row.dim:
            ids.append(fact_id)
            blobs.append(blob)
        else:
            removed.append(fact_id)
    rows: Rows = unit_rows(vector_rows(ids, blobs, row.dim).copy()).astype(row.type)
    return Entry(removed, ids, rows)
