"""Version 11: each partition's vectors as chunk rows in the file (``vectors.logs``)."""

from __future__ import annotations

import sqlite3

from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vectors.log_builds import build

# Version 11: each partition's vectors as a log of chunk rows, per type (``vector_logs``),
# written in the same transaction as the facts. ``vector_files`` and the files are gone.
CREATE_VECTOR_LOGS = """
CREATE TABLE IF NOT EXISTS vector_logs (
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    dtype TEXT NOT NULL,  -- float16 or float32: how its chunks hold the unit rows
    model TEXT NOT NULL, dim INTEGER NOT NULL,  -- the space of its rows
    seq INTEGER NOT NULL,  -- the partition's fact stamp its chunks bring it to
    chunks INTEGER NOT NULL,  -- chunk rows, numbered from 0
    written INTEGER NOT NULL,  -- rows in them, live or since replaced or removed
    PRIMARY KEY (agent_id, scope, owner, dtype)
) WITHOUT ROWID
"""
CREATE_VECTOR_CHUNKS = """
CREATE TABLE IF NOT EXISTS vector_chunks (
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL, dtype TEXT NOT NULL,
    chunk_no INTEGER NOT NULL,  -- its place in the log
    count INTEGER NOT NULL,  -- rows it writes
    removed BLOB NOT NULL,  -- NUL-separated ids that left the partition before its rows
    ids BLOB NOT NULL,  -- NUL-separated ids of its rows
    rows BLOB NOT NULL,  -- their unit rows, C order; last, so reading the ids skips them
    PRIMARY KEY (agent_id, scope, owner, dtype, chunk_no)
)
"""


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 11 keeps each partition's vectors in the file itself, as chunk rows written in
    the same transaction as the facts (``vector_logs``), instead of in files beside it. The
    files were a cache of the fact rows, which hold every vector in float32: each partition
    that had a file of the store's space gets its log of the same type built from its fact
    rows (every vector, whatever the file held), and ``vector_files`` goes; the files
    themselves are deleted once the upgrade has committed (``forget_vector_files``). A
    partition without a file is built at its first search, as it was before."""
    conn.execute(CREATE_VECTOR_LOGS)
    conn.execute(CREATE_VECTOR_CHUNKS)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "vector_files" not in tables:
        return
    space = read_space(conn)
    if space is not None:
        for agent_id, scope, owner, dtype in conn.execute(
            "SELECT agent_id, scope, owner, dtype FROM vector_files WHERE model = ? AND dim = ? "
            "AND dtype IN ('float16', 'float32')",
            (space.model, space.dimension),
        ).fetchall():
            build(conn, (agent_id, scope, owner), dtype, space)
    conn.execute("DROP TABLE vector_files")
