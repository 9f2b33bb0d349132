"""Version 12: each session's rendered context kept in the file."""

from __future__ import annotations

import sqlite3

from eden_memory.adapters.stores.sqlite.migrations.script import run_script

# Version 12: the rendered contexts kept with their sessions (``sqlite_contexts``), one per
# session and variant (user and active scopes); ``revisions`` is a JSON list of integers.
# A rowid table: a context is kilobytes of XML, too large a row for WITHOUT ROWID.
CREATE_SESSION_CONTEXTS = """
CREATE TABLE IF NOT EXISTS session_contexts (
    pk INTEGER PRIMARY KEY,
    agent_id TEXT NOT NULL, session_id TEXT NOT NULL, variant TEXT NOT NULL,
    built_us INTEGER NOT NULL, until_us INTEGER,
    facts INTEGER NOT NULL,
    revisions TEXT NOT NULL,
    xml TEXT NOT NULL,
    UNIQUE (agent_id, session_id, variant)
);
CREATE INDEX IF NOT EXISTS session_contexts_age ON session_contexts (agent_id, built_us);
"""


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 12 keeps each session's rendered context in the file (``session_contexts``),
    so the processes sharing it serve the context one of them built. Nothing else changes:
    the table starts empty, and a context is built at each session's next prompt, as
    after a restart."""
    run_script(conn, CREATE_SESSION_CONTEXTS)
