"""Who holds memory, a page at a time, and ids from their first characters.

Each query walks an index in order and stops at its ``LIMIT``: the owners along the
(agent, scope, owner) prefix of ``facts_partition_seq``, ``reflections_key`` and the blobs'
primary key; ids along their ``UNIQUE`` index, as the range ``prefix <= id < prefix + U+10FFFF``
(no id holds U+10FFFF, and UTF-8 sorts as code points do). ``+agent_id`` keeps the planner off
the agent's own indexes, which would read every fact of the agent to find a few ids.
"""

from __future__ import annotations

import sqlite3

from eden_memory.domain.ids import FactId, ReflectionId, UserId
from eden_memory.domain.scopes import Scope

LAST = "\U0010ffff"


def fact_users(
    conn: sqlite3.Connection, agent_id: str, after: str | None, limit: int
) -> list[UserId]:
    rows = conn.execute(
        "SELECT DISTINCT owner FROM facts WHERE agent_id = ? AND scope = 'user' AND owner > ? "
        "ORDER BY owner LIMIT ?",
        (agent_id, after or "", max(limit, 0)),
    )
    return [UserId(owner) for (owner,) in rows]


def note_owners(
    conn: sqlite3.Connection, agent_id: str, scope: Scope, after: str | None, limit: int
) -> list[str]:
    where = (agent_id, scope.value, after or "", max(limit, 0))
    rows = conn.execute(
        "SELECT owner FROM (SELECT DISTINCT owner FROM reflections "
        "WHERE agent_id = ? AND scope = ? AND owner > ? ORDER BY owner LIMIT ?) "
        "UNION SELECT owner FROM (SELECT owner FROM consolidated "
        "WHERE agent_id = ? AND scope = ? AND owner > ? ORDER BY owner LIMIT ?) "
        "ORDER BY owner LIMIT ?",
        (*where, *where, max(limit, 0)),
    )
    return [str(owner) for (owner,) in rows]


def fact_ids_from(conn: sqlite3.Connection, agent_id: str, prefix: str, limit: int) -> list[FactId]:
    return [FactId(i) for i in _ids(conn, "facts", agent_id, prefix, limit)]


def reflection_ids_from(
    conn: sqlite3.Connection, agent_id: str, prefix: str, limit: int
) -> list[ReflectionId]:
    return [ReflectionId(i) for i in _ids(conn, "reflections", agent_id, prefix, limit)]


def _ids(conn: sqlite3.Connection, table: str, agent_id: str, prefix: str, limit: int) -> list[str]:
    rows = conn.execute(
        f"SELECT id FROM {table} WHERE id >= ? AND id < ? AND +agent_id = ? ORDER BY id LIMIT ?",
        (prefix, prefix + LAST, agent_id, max(limit, 0)),
    )
    return [str(i) for (i,) in rows]
