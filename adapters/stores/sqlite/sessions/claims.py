"""A claim's statements: taking a session's pending messages, and checking it is still held.

Run inside the claiming transaction (``BEGIN IMMEDIATE``): the conditional UPDATEs repeat the
check (no live claim of another) in the statement itself, so a claim can never be taken
twice even if the check before it changes.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from eden_memory.adapters.stores.sqlite.codec import to_us
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, decoding
from eden_memory.adapters.stores.sqlite.sessions.rows import KEY
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.models import Claim, Message


def take(
    conn: sqlite3.Connection,
    ids: tuple[str, str],
    claim_id: str,
    times: tuple[datetime, datetime],
    limit: int,
) -> tuple[Message, ...] | None:
    """Claim the session ``ids`` until ``times[1]`` (``times[0]``: now) and up to ``limit``
    of its pending messages, oldest first; None if another holds it."""
    now, expires = times
    taken = conn.execute(  # free, expired, or already this claimant's (a retry)
        "UPDATE sessions SET claim_id = ?, claim_expires_us = ? WHERE "
        f"{KEY} AND (claim_expires_us IS NULL OR claim_expires_us <= ? OR claim_id = ?)",
        (claim_id, to_us(expires), *ids, to_us(now), claim_id),
    )
    if taken.rowcount != 1:
        return None
    rows = conn.execute(
        f"UPDATE messages SET claim_id = ? WHERE pk IN (SELECT pk FROM messages "
        f"WHERE {KEY} AND formed = 0 ORDER BY sent_us, pk LIMIT ?) "
        "RETURNING sent_us, pk, doc",
        (claim_id, *ids, limit),
    ).fetchall()
    with decoding("messages", ids):  # a damaged time is not an integer to sort
        return tuple(_message(pk, doc) for _, pk, doc in sorted(rows))


def formation_plan(conn: sqlite3.Connection, ids: tuple[str, str]) -> str | None:
    (plan,) = conn.execute(f"SELECT formation_plan FROM sessions WHERE {KEY}", ids).fetchone()
    if plan is not None and not isinstance(plan, str):
        raise Undecodable("sessions", ids, "its formation plan is not text")
    return plan


def require_claim(conn: sqlite3.Connection, claim: Claim) -> None:
    row = conn.execute(
        f"SELECT claim_id FROM sessions WHERE {KEY}",
        (claim.session.agent_id, claim.session.session_id),
    ).fetchone()
    if row is None or row[0] != claim.claim_id:
        raise ConflictError(
            f"claim {claim.claim_id!r} on session {claim.session.session_id!r} was lost: "
            "it expired and another worker took the messages"
        )


def _message(pk: int, doc: str) -> Message:
    with decoding("messages", pk):
        return Message.model_validate_json(doc)
