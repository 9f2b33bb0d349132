"""Making removed records unreadable from the store's file, after an erasure.

The writer deletes with ``secure_delete`` on, so SQLite zeroes the content it frees. Three
places still hold removed text or vectors after that: the keyword index (FTS5 marks an entry
deleted and keeps it in its segments until they merge), the vector logs (a removed fact's
row stays in an older chunk until the log is compacted), and the write-ahead log (page
images of earlier transactions). ``scrub`` merges the index, compacts every vector log, and
checkpoints the write-ahead log to an empty file.
"""

from __future__ import annotations

import sqlite3
import time

from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.vector_log_writes import compact_all

_CHECKPOINT_TRIES = 20


def scrub(conn: sqlite3.Connection) -> None:
    """Run on the writer, outside any transaction."""
    with transaction(conn, write=True):
        conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")
        compact_all(conn)
    for _ in range(_CHECKPOINT_TRIES):  # a reader's open snapshot can hold the log a moment
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if not busy:
            return
        time.sleep(0.05)
