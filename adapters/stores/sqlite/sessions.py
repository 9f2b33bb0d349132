"""Sessions: recorded turns, their pending work, and the snapshot of how to form them.

The pending counters are recomputed from the messages in the transaction that changes
them, so they can never drift from the messages themselves.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.sqlite.codec import from_us, to_us
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import decoding
from eden_memory.domain.models import SessionState
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage

SESSION_COLUMNS = (
    "agent_id, session_id, profile, pending_messages, pending_tokens, last_activity_us, "
    "last_formed_us, ended_us, claim_id, claim_expires_us"
)
_KEY = "agent_id = ? AND session_id = ?"
# The profile's fields kept in its JSON column (the key has columns of its own).
_PROFILE_TYPES: dict[str, type | tuple[type, ...]] = {
    "user_ids": list,
    "user_memory_enabled": bool,
    "agent_memory_enabled": bool,
    "memory_instructions": str,
    "premium": bool,
}


def state_from_row(row: Sequence[Any]) -> SessionState:
    # The key has columns of its own; the rest of the profile is one JSON column.
    with decoding("sessions", (row[0], row[1])):
        return SessionState(
            profile=SessionProfile(row[0], row[1], **_profile_fields(row[2])),
            pending_messages=row[3],
            pending_tokens=row[4],
            last_activity_at=from_us(row[5]),
            last_formed_at=from_us(row[6]),
            ended_at=from_us(row[7]),
            claim_id=row[8],
            claim_expires_at=from_us(row[9]),
        )


def _profile_fields(doc: str) -> dict[str, Any]:
    """The profile's JSON, checked field by field: ``SessionProfile`` is a plain dataclass,
    which would keep a damaged toggle of any type."""
    fields = json.loads(doc)
    if not isinstance(fields, dict):
        raise TypeError("the profile is not a JSON object")
    for name, value in fields.items():
        expected = _PROFILE_TYPES.get(name)
        if expected is None or not isinstance(value, expected):
            raise TypeError(f"the profile's {name!r} is not a {_PROFILE_TYPES.get(name, 'field')}")
    return fields


def read_state(conn: sqlite3.Connection, agent_id: str, session_id: str) -> SessionState | None:
    row = conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {_KEY}", (agent_id, session_id)
    ).fetchone()
    return None if row is None else state_from_row(row)


def recount_pending(conn: sqlite3.Connection, agent_id: str, session_id: str) -> None:
    conn.execute(
        "UPDATE sessions SET "
        f"pending_messages = (SELECT COUNT(*) FROM messages WHERE {_KEY} AND formed = 0), "
        "pending_tokens = (SELECT COALESCE(SUM(weighted_tokens), 0) FROM messages "
        f"WHERE {_KEY} AND formed = 0) WHERE {_KEY}",
        (agent_id, session_id) * 3,
    )


def record_messages(
    conn: sqlite3.Connection,
    profile: SessionProfile,
    messages: Sequence[PendingMessage],
    now: datetime,
) -> SessionState:
    ids = (profile.agent_id, profile.session_id)
    snapshot = {k: v for k, v in asdict(profile).items() if k not in ("agent_id", "session_id")}
    with transaction(conn, write=True):
        conn.execute(
            "INSERT INTO sessions (agent_id, session_id, profile, last_activity_us) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, session_id) DO UPDATE SET "
            "profile = excluded.profile, last_activity_us = excluded.last_activity_us",
            (*ids, json.dumps(snapshot), to_us(now)),
        )
        # Everyone who ever took part stays listed, so erasing a user finds every session.
        conn.executemany(
            "INSERT OR IGNORE INTO session_users (agent_id, user_id, session_id) VALUES (?, ?, ?)",
            [(profile.agent_id, user, profile.session_id) for user in profile.user_ids],
        )
        conn.executemany(
            "INSERT INTO messages (agent_id, session_id, message_id, author_id, sent_us, "
            "weighted_tokens, doc) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (agent_id, session_id, message_id) DO NOTHING",
            [
                (
                    *ids,
                    p.message.id,
                    p.message.author_id,
                    to_us(p.message.sent_at),
                    p.weighted_tokens,
                    p.message.model_dump_json(),
                )
                for p in messages
            ],
        )
        recount_pending(conn, *ids)
        state = read_state(conn, *ids)
    assert state is not None
    return state


def end_session(
    conn: sqlite3.Connection, agent_id: str, session_id: str, now: datetime
) -> SessionState | None:
    with transaction(conn, write=True):
        conn.execute(
            f"UPDATE sessions SET ended_us = ? WHERE {_KEY}", (to_us(now), agent_id, session_id)
        )
        return read_state(conn, agent_id, session_id)


def cold_sessions(
    conn: sqlite3.Connection, idle_before: datetime, min_messages: int, limit: int
) -> list[SessionState]:
    rows = conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE last_activity_us <= ? "
        "AND pending_messages >= ? ORDER BY last_activity_us, agent_id, session_id LIMIT ?",
        (to_us(idle_before), min_messages, limit),
    )
    return [state_from_row(row) for row in rows]


def sessions_of_user(conn: sqlite3.Connection, agent_id: str, user_id: str) -> list[SessionState]:
    rows = conn.execute(
        f"SELECT {', '.join('s.' + c.strip() for c in SESSION_COLUMNS.split(','))} "
        "FROM session_users u JOIN sessions s USING (agent_id, session_id) "
        "WHERE u.agent_id = ? AND u.user_id = ? ORDER BY s.session_id",
        (agent_id, user_id),
    )
    return [state_from_row(row) for row in rows]


def delete_session(conn: sqlite3.Connection, agent_id: str, session_id: str) -> int:
    with transaction(conn, write=True):
        removed = conn.execute(f"DELETE FROM messages WHERE {_KEY}", (agent_id, session_id))
        conn.execute(f"DELETE FROM sessions WHERE {_KEY}", (agent_id, session_id))
        return removed.rowcount


def delete_messages_by_author(conn: sqlite3.Connection, agent_id: str, author_id: str) -> int:
    with transaction(conn, write=True):
        touched = conn.execute(
            "DELETE FROM messages WHERE agent_id = ? AND author_id = ? RETURNING session_id",
            (agent_id, author_id),
        ).fetchall()
        for session_id in {row[0] for row in touched}:
            recount_pending(conn, agent_id, session_id)
        return len(touched)


def remove_user(conn: sqlite3.Connection, agent_id: str, user_id: str) -> list[str]:
    """Take the user out of every session profile of the agent that names them (erasure)."""
    with transaction(conn, write=True):
        rows = conn.execute(
            "DELETE FROM session_users WHERE agent_id = ? AND user_id = ? RETURNING session_id",
            (agent_id, user_id),
        ).fetchall()
        changed: list[str] = []
        for session_id in sorted({row[0] for row in rows}):
            state = read_state(conn, agent_id, session_id)
            if state is None or user_id not in state.profile.user_ids:
                continue
            users = [u for u in state.profile.user_ids if u != user_id]
            snapshot = {k: v for k, v in asdict(state.profile).items()}
            snapshot = {k: v for k, v in snapshot.items() if k not in ("agent_id", "session_id")}
            snapshot["user_ids"] = users
            conn.execute(
                f"UPDATE sessions SET profile = ? WHERE {_KEY}",
                (json.dumps(snapshot), agent_id, session_id),
            )
            changed.append(session_id)
        return changed
