"""The writer's side, one level down: one chunk appended at a file's valid length.

Both ways the writer moves a file forward end here: following a write (``follow``) and
catching a search's snapshot up before adopting it (``adopt``). A chunk is written where
the row says the valid bytes end, so bytes a rolled-back write left there are overwritten;
the caller saves the moved row in its transaction, or drops the file when this cannot.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np

from eden_memory.adapters.stores.sqlite.decoding import vector_rows
from eden_memory.adapters.stores.sqlite.partition import Rows, unit_rows
from eden_memory.adapters.stores.sqlite.vector_file import (
    Buffer,
    DamagedFile,
    chunk,
    link,
    size,
    writable_ids,
)
from eden_memory.adapters.stores.sqlite.vector_file_rows import WHERE_KEY, FileRow


def catch_up(conn: sqlite3.Connection, path: Path, row: FileRow, seq: int) -> FileRow | None:
    """Append what happened to the partition after ``row.seq`` up to ``seq``; the moved row,
    or None when the file cannot take it (missing, shorter than its row, unwritable ids)."""
    return append(path, row, seq, _changes_since(conn, row))


def append(
    path: Path, row: FileRow, seq: int, changes: tuple[list[str], list[str], Rows]
) -> FileRow | None:
    """Write ``changes`` (removed ids, written ids, their rows) as one chunk at the end of the
    row's valid bytes; the moved row, or None when the file cannot take them."""
    removed, ids, rows = changes
    if not writable_ids(removed) or not writable_ids(ids):
        return None
    pieces: list[Buffer] = chunk(seq, removed, ids, rows) if removed or ids else []
    try:
        _write_at(path, row.bytes, pieces)
    except (OSError, DamagedFile):
        return None
    digest = link(row.digest, pieces) if pieces else row.digest
    moved = row.bytes + size(pieces)
    return replace(row, seq=seq, bytes=moved, written=row.written + len(ids), digest=digest)


def _write_at(path: Path, offset: int, pieces: list[Buffer]) -> None:
    """Write ``pieces`` from ``offset`` on, with plain system calls (a write per call adds
    one of these: Python's buffered file objects cost more than the write itself)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        if os.fstat(fd).st_size < offset:
            raise DamagedFile("the file is shorter than its row says")
        for piece in pieces:
            while piece:
                done = os.pwrite(fd, piece, offset)
                offset += done
                piece = memoryview(piece)[done:]
    finally:
        os.close(fd)


def _changes_since(conn: sqlite3.Connection, row: FileRow) -> tuple[list[str], list[str], Rows]:
    """As ``vector_index`` replays them: tombstones leave, then each row written after the
    stamp is in (active, of the file's space) or out."""
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
    flat = vector_rows(ids, blobs, row.dim)
    return removed, ids, unit_rows(flat.copy()).astype(np.dtype(row.dtype).type)
