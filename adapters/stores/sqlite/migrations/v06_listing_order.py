"""Version 6: facts listed newest first, then by id, along one index."""

from __future__ import annotations

import sqlite3


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 6 lists facts newest first, then by id, along one index, so a listing page
    continued from a position (``FactQuery.after``) starts where it is instead of sorting or
    skipping; the index it replaces was its prefix (agent, time)."""
    conn.execute("CREATE INDEX IF NOT EXISTS facts_listing ON facts (agent_id, formed_us DESC, id)")
    conn.execute("DROP INDEX IF EXISTS facts_agent_formed")
