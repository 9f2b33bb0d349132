"""Version 7: each partition's vectors in a file beside the store (until version 11)."""

from __future__ import annotations

import sqlite3

# Version 7: which vector file of a partition is valid, up to where (``vector_files``).
CREATE_VECTOR_FILES = """
CREATE TABLE IF NOT EXISTS vector_files (
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    dtype TEXT NOT NULL,  -- float16 or float32: how the file holds the unit rows
    token BLOB NOT NULL,  -- random, also in the file's header: names this file
    model TEXT NOT NULL, dim INTEGER NOT NULL,  -- the space of its vectors
    seq INTEGER NOT NULL,  -- the partition's fact stamp the valid bytes bring it to
    bytes INTEGER NOT NULL,  -- how many bytes of the file are valid
    written INTEGER NOT NULL,  -- rows in those bytes, live or since replaced or removed
    PRIMARY KEY (agent_id, scope, owner, dtype)
) WITHOUT ROWID
"""


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 7 keeps each partition's vectors in a file beside the store as well
    (``vector_files``), and indexes the keyword text of added facts in one statement per
    batch (``facts.add_facts``) instead of a trigger per row. Nothing else changes: the
    files start empty and are written by the first search of each partition."""
    conn.execute(CREATE_VECTOR_FILES)
    conn.execute("DROP TRIGGER IF EXISTS facts_fts_insert")
