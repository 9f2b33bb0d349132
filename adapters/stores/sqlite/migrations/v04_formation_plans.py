"""Version 4: a formation's plan kept on its session."""

from __future__ import annotations

import sqlite3


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 4 keeps a formation's plan on its session until the claim completes."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
    if "formation_plan" not in columns:
        conn.execute("ALTER TABLE sessions ADD COLUMN formation_plan TEXT")
