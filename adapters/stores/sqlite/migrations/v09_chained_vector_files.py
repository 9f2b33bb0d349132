"""Version 9: a vector file's valid chunks named by a digest."""

from __future__ import annotations

import sqlite3


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 9 names the chunks a vector file's valid bytes hold (``vector_files.digest``,
    over chunk headers that carry a nonce), so a chunk a power loss restored from a write
    that never committed is not read as the committed one (that release's ``vector_file``).
    A file of the
    old layout keeps its row, so erasure still finds and zeroes it, with a digest no file
    matches: each partition's next search writes it anew from the rows."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(vector_files)")}
    if columns and "digest" not in columns:  # none: a later layout, labelled older by hand
        conn.execute("ALTER TABLE vector_files ADD COLUMN digest BLOB NOT NULL DEFAULT x''")
