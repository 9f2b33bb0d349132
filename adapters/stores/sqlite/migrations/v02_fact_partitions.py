"""Version 2: the count of partitions that have held facts."""

from __future__ import annotations

import sqlite3


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 2 counts the partitions that have held facts (see ``revisions``)."""
    conn.execute(
        "INSERT INTO counters SELECT 'fact_partitions', COUNT(*) FROM scope_state "
        "WHERE fact_seq > 0 AND scope != 'session'"
    )
