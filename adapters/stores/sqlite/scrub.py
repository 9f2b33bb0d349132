"""Making removed records unreadable from the store's files, after an erasure.

The writer deletes with ``secure_delete`` on, so SQLite zeroes the content it frees. Three
places still hold removed text or vectors after that: the keyword index (FTS5 marks an entry
deleted and keeps it in its segments until they merge), the vector files (append logs that
keep a removed fact's row in older chunks), and the write-ahead log (page images of earlier
transactions). ``scrub`` merges the index, overwrites and drops the vector files (a search
rebuilds them from the fact rows), and checkpoints the log to an empty file.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time

from eden_memory.adapters.stores.sqlite.connection import transaction, vector_folder
from eden_memory.adapters.stores.sqlite.vector_file_rows import COLUMNS, decode_row, file_path

_CHECKPOINT_TRIES = 20


def scrub(conn: sqlite3.Connection) -> None:
    """Run on the writer, outside any transaction."""
    with transaction(conn, write=True):
        conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")
        _drop_vector_files(conn)
    for _ in range(_CHECKPOINT_TRIES):  # a reader's open snapshot can hold the log a moment
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if not busy:
            return
        time.sleep(0.05)


def _drop_vector_files(conn: sqlite3.Connection) -> None:
    folder = vector_folder(conn)
    rows = [decode_row(r) for r in conn.execute(f"SELECT {COLUMNS} FROM vector_files").fetchall()]
    conn.execute("DELETE FROM vector_files")
    if folder is None:
        return
    for row in rows:
        _overwrite(file_path(folder, row.key, row.dtype))


def _overwrite(path: os.PathLike[str]) -> None:
    """Zero a file's bytes on disk before unlinking it (unlinking alone frees the blocks as
    they are)."""
    with contextlib.suppress(OSError):
        with open(path, "r+b") as file:
            size = file.seek(0, os.SEEK_END)
            file.seek(0)
            file.write(bytes(size))
            file.flush()
            os.fsync(file.fileno())
        os.unlink(path)
