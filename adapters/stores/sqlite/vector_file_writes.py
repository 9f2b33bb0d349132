"""The writer's side of the vector files: every row of ``vector_files`` moves here.

Runs on the store's writer, inside its write transactions, so a file's row moves with the
facts it caches: ``follow`` appends what a write changed to the files of the partitions it
touched (``revisions.Changes.flush``), creating a new partition's file and dropping an
emptied one's; ``adopt`` puts a search's snapshot (``vector_file_reads``) in place, caught
up to now, only if the row still names the file the search saw. The bytes are appended by
``vector_file_appends``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import KeyCols, placeholders
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import as_int
from eden_memory.adapters.stores.sqlite.partition import Matrix, Rows, unit_rows
from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vector_file import VectorFolder, header
from eden_memory.adapters.stores.sqlite.vector_file_appends import append, catch_up
from eden_memory.adapters.stores.sqlite.vector_file_rows import (
    COLUMNS,
    WHERE_KEY,
    FileRow,
    Snapshot,
    decode_row,
    file_path,
    file_row,
    new_row,
    usable,
)
from eden_memory.domain.embedding_space import EmbeddingSpace


@dataclass
class Added:
    """Active facts a write inserted into one partition, with their float32 rows."""

    ids: list[str] = field(default_factory=list)
    parts: list[Matrix] = field(default_factory=list)

    def extend(self, ids: list[str], rows: Matrix) -> None:
        self.ids.extend(ids)
        self.parts.append(rows)

    def rows(self, dtype: str) -> Rows:
        """Unit rows in the file's type, as ``catch_up`` would read them back."""
        joined = np.concatenate(self.parts) if len(self.parts) > 1 else self.parts[0].copy()
        return unit_rows(joined).astype(np.dtype(dtype).type)


def adopt(conn: sqlite3.Connection, folder: VectorFolder, snap: Snapshot) -> bool:
    """Put a search's snapshot in place, caught up to now, unless the file changed meanwhile."""
    row = snap.row
    try:
        with transaction(conn, write=True):
            current = file_row(conn, row.key, row.dtype)
            now = _partition_seq(conn, row.key)
            if (current.token if current else None) != snap.seen or not usable(
                conn, row, read_space(conn), now
            ):
                return False
            caught = catch_up(conn, snap.temp, row, now)
            if caught is None:
                return False
            os.replace(snap.temp, file_path(folder, row.key, row.dtype))
            _save(conn, caught)
            return True
    finally:
        snap.temp.unlink(missing_ok=True)  # gone already when it was put in place


def follow(
    conn: sqlite3.Connection,
    folder: VectorFolder,
    before: Mapping[KeyCols, int],
    seq: int,
    added: Mapping[KeyCols, Added] | None = None,
    space: EmbeddingSpace | None = None,
) -> None:
    """Append this transaction's changes to the files of the partitions it touched.

    ``before``: each touched partition's stamp before the transaction (0: it never held a
    fact, so its file starts now, empty, in this store's type). ``added``: the partitions
    this transaction only inserted active facts into, with those facts' rows. ``space``:
    the store's, if the caller knows it. Call inside the transaction.
    """
    added = added or {}
    for key, old_seq in before.items():
        rows = _rows_of(conn, key)
        if not rows and old_seq:
            continue
        space = space or read_space(conn)
        if space is None:
            continue
        if old_seq == 0 and not any(r.dtype == folder.dtype_name for r in rows):
            rows.append(_create(conn, folder, key, space))
        new = added.get(key)
        if new is None and not _holds_active(conn, key):  # emptied: no vector stays behind
            for row in rows:
                _drop(conn, folder, row)
            continue
        for row in rows:
            if new is not None and row.seq == old_seq and usable(conn, row, space, old_seq):
                _follow_added(conn, folder, row, new, seq)
            else:
                _follow_one(conn, folder, row, space, (old_seq, seq))


def _follow_one(
    conn: sqlite3.Connection,
    folder: VectorFolder,
    row: FileRow,
    space: EmbeddingSpace,
    seqs: tuple[int, int],
) -> None:
    """``seqs``: the partition's stamp before this transaction, and this transaction's."""
    path = file_path(folder, row.key, row.dtype)
    caught = catch_up(conn, path, row, seqs[1]) if usable(conn, row, space, seqs[0]) else None
    if caught is None:
        _drop(conn, folder, row)
    else:
        _save(conn, caught)


def _follow_added(
    conn: sqlite3.Connection, folder: VectorFolder, row: FileRow, new: Added, seq: int
) -> None:
    """Append inserted facts to a file that was current before them: no read back."""
    path = file_path(folder, row.key, row.dtype)
    moved = append(path, row, seq, ([], new.ids, new.rows(row.dtype)))
    if moved is None:
        _drop(conn, folder, row)
    else:
        _save(conn, moved)


def _create(
    conn: sqlite3.Connection, folder: VectorFolder, key: KeyCols, space: EmbeddingSpace
) -> FileRow:
    """An empty file for a new partition (written whole, then renamed into place)."""
    row = new_row(folder, key, space, 0)
    path = file_path(folder, key, row.dtype)
    temp = path.with_suffix(f".{row.token.hex()}.tmp")
    try:
        folder.path.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(header(row.layout))
        os.replace(temp, path)
    except OSError:
        temp.unlink(missing_ok=True)
    return row  # if the file could not be made, following it fails and drops the row


def _drop(conn: sqlite3.Connection, folder: VectorFolder, row: FileRow) -> None:
    """Forget a file: its row goes, and the file (a search reads the rows next time)."""
    conn.execute(f"DELETE FROM vector_files WHERE {WHERE_KEY} AND dtype = ?", (*row.key, row.dtype))
    with contextlib.suppress(OSError):
        file_path(folder, row.key, row.dtype).unlink(missing_ok=True)


def _save(conn: sqlite3.Connection, row: FileRow) -> None:
    conn.execute(
        f"INSERT OR REPLACE INTO vector_files ({COLUMNS}) VALUES ({placeholders(11)})",
        (
            *row.key,
            row.dtype,
            row.token,
            row.digest,
            row.model,
            row.dim,
            row.seq,
            row.bytes,
            row.written,
        ),
    )


def _rows_of(conn: sqlite3.Connection, key: KeyCols) -> list[FileRow]:
    return [
        decode_row(r)
        for r in conn.execute(f"SELECT {COLUMNS} FROM vector_files WHERE {WHERE_KEY}", key)
    ]


def _holds_active(conn: sqlite3.Connection, key: KeyCols) -> bool:
    found = conn.execute(
        f"SELECT EXISTS (SELECT 1 FROM facts WHERE {WHERE_KEY} AND status = 'active')", key
    ).fetchone()
    return bool(found[0])


def _partition_seq(conn: sqlite3.Connection, key: KeyCols) -> int:
    found = conn.execute(f"SELECT fact_seq FROM scope_state WHERE {WHERE_KEY}", key).fetchone()
    return as_int(found[0], "scope_state", key) if found else 0
