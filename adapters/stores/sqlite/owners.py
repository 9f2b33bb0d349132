"""Who holds memory, a page at a time, and ids from their first characters.

Each query walks an index in order and stops at its ``LIMIT``: the owners along the
(agent, scope, owner) prefix of ``facts_partition_seq``, ``reflections_key`` and the blobs'
primary key; ids along their ``UNIQUE`` index, as the range ``prefix <= id < prefix + U+10FFFF``
(no id holds U+10FFFF, and UTF-8 sorts as code points do). ``+agent_id`` keeps the planner off
the agent's own indexes, which would read every fact of the agent to find a few ids.
"""

from __future__ import annotations

import sqlite3
from typing import Literal

LAST = "\U0010ffff"


def ids_from(
    conn: sqlite3.Connection,
    table: Literal["facts", "reflections"],
    agent_id: str,
    prefix: str,
    limit: int,
) -> list[str]:
    rows = conn.execute(
        f"SELECT id FROM {table} WHERE id >= ? AND id < ? AND +agent_id = ? ORDER BY id LIMIT ?",
        (prefix, prefix + LAST, agent_id, max(limit, 0)),
    )
    return [str(i) for (i,) in rows]
