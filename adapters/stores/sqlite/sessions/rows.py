"""A session's row: its state read back, its profile's JSON, and its pending counters.

The pending counters are recomputed from the messages in the transaction that changes
them, so they can never drift from the messages themselves.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import fields as dataclass_fields
from typing import Any

from eden_memory.adapters.stores.sqlite.codec import from_us, to_us
from eden_memory.adapters.stores.sqlite.decoding import decoding
from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.models import SessionState
from eden_memory.domain.models.provenance import filed_author
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage

SESSION_COLUMNS = (
    "agent_id, session_id, profile, pending_messages, pending_tokens, last_activity_us, "
    "last_formed_us, ended_us, claim_id, claim_expires_us"
)
KEY = "agent_id = ? AND session_id = ?"
# The profile's fields kept in its JSON column (the key has columns of its own).
_PROFILE_TYPES: dict[str, type | tuple[type, ...]] = {
    "user_ids": list,
    "user_memory_enabled": bool,
    "agent_memory_enabled": bool,
    "memory_instructions": str,
    "premium": bool,
    "settings": dict,  # the agent's own settings, only the fields it sets (absent: none)
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
    if "settings" in fields:
        fields["settings"] = AgentSettings.model_validate(fields["settings"])
    return fields


def read_state(conn: sqlite3.Connection, agent_id: str, session_id: str) -> SessionState | None:
    row = conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {KEY}", (agent_id, session_id)
    ).fetchone()
    return None if row is None else state_from_row(row)


def recount_pending(conn: sqlite3.Connection, agent_id: str, session_id: str) -> None:
    conn.execute(
        "UPDATE sessions SET "
        f"pending_messages = (SELECT COUNT(*) FROM messages WHERE {KEY} AND formed = 0), "
        "pending_tokens = (SELECT COALESCE(SUM(weighted_tokens), 0) FROM messages "
        f"WHERE {KEY} AND formed = 0) WHERE {KEY}",
        (agent_id, session_id) * 3,
    )


def profile_doc(profile: SessionProfile, **changed: object) -> str:
    """The profile's JSON column: every field but the key, which has columns of its own."""
    fields: dict[str, object] = {
        f.name: getattr(profile, f.name)
        for f in dataclass_fields(profile)
        if f.name not in ("agent_id", "session_id", "settings", "user_name")
    }
    fields["user_ids"] = list(profile.user_ids)
    # Only when set: a profile without its own settings reads as the previous release wrote it.
    if profile.settings.changes:
        fields["settings"] = profile.settings.changes
    return json.dumps(fields | changed)


def message_rows(
    ids: tuple[str, str], messages: Sequence[PendingMessage]
) -> list[tuple[object, ...]]:
    """The parameters that insert ``messages`` into the session ``ids``; the author column is
    the one erasure deletes by (``filed_author``)."""
    return [
        (
            *ids,
            p.message.id,
            filed_author(p.message),
            to_us(p.message.sent_at),
            p.weighted_tokens,
            p.message.model_dump_json(),
        )
        for p in messages
    ]
