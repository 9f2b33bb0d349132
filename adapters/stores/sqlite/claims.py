"""Claims: one worker at a time forms a session's pending messages, across processes.

Each step is one ``BEGIN IMMEDIATE`` transaction, which holds SQLite's write lock from its
first statement: the check (no live claim, enough pending) and the take happen with no
other writer in between, in this process or any other. The conditional UPDATEs repeat the
check in the statement itself, so a claim can never be taken twice even if that changes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta

from eden_memory.adapters.stores.sqlite.codec import to_us
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, decoding
from eden_memory.adapters.stores.sqlite.reflections import insert_reflections
from eden_memory.adapters.stores.sqlite.revisions import writing
from eden_memory.adapters.stores.sqlite.sessions import read_state, recount_pending
from eden_memory.domain.errors import ConflictError, InvalidInputError
from eden_memory.domain.models import Claim, Message, Reflection

_KEY = "agent_id = ? AND session_id = ?"


def claim_messages(
    conn: sqlite3.Connection,
    agent_id: str,
    session_id: str,
    claim_id: str,
    now: datetime,
    ttl_seconds: float,
    min_messages: int,
    limit: int,
) -> Claim | None:
    if limit <= 0 or ttl_seconds <= 0:
        raise InvalidInputError("a claim needs a positive limit and time to live")
    expires = now + timedelta(seconds=ttl_seconds)
    ids = (agent_id, session_id)
    with transaction(conn, write=True):
        state = read_state(conn, *ids)
        if (
            state is None
            or state.held_by_another(claim_id, now)
            or state.pending_messages < min_messages
        ):
            return None
        taken = conn.execute(  # free, expired, or already this claimant's (a retry)
            "UPDATE sessions SET claim_id = ?, claim_expires_us = ? WHERE "
            f"{_KEY} AND (claim_expires_us IS NULL OR claim_expires_us <= ? OR claim_id = ?)",
            (claim_id, to_us(expires), *ids, to_us(now), claim_id),
        )
        if taken.rowcount != 1:
            return None
        rows = conn.execute(
            f"UPDATE messages SET claim_id = ? WHERE pk IN (SELECT pk FROM messages "
            f"WHERE {_KEY} AND formed = 0 ORDER BY sent_us, pk LIMIT ?) "
            "RETURNING sent_us, pk, doc",
            (claim_id, *ids, limit),
        ).fetchall()
        with decoding("messages", ids):  # a damaged time is not an integer to sort
            messages = tuple(_message(pk, doc) for _, pk, doc in sorted(rows))
        claimed = read_state(conn, *ids)
        (plan,) = conn.execute(f"SELECT formation_plan FROM sessions WHERE {_KEY}", ids).fetchone()
        if plan is not None and not isinstance(plan, str):
            raise Undecodable("sessions", ids, "its formation plan is not text")
    assert claimed is not None
    return Claim(
        claim_id=claim_id,
        session=claimed,
        messages=messages,
        claimed_at=now,
        expires_at=expires,
        plan=plan,
    )


def _message(pk: int, doc: str) -> Message:
    with decoding("messages", pk):
        return Message.model_validate_json(doc)


def save_plan(conn: sqlite3.Connection, claim: Claim, plan: str) -> None:
    with transaction(conn, write=True):
        saved = conn.execute(
            f"UPDATE sessions SET formation_plan = ? WHERE {_KEY} AND claim_id = ?",
            (plan, claim.session.agent_id, claim.session.session_id, claim.claim_id),
        )
        if saved.rowcount != 1:
            _require_claim(conn, claim)


def complete_claim(
    conn: sqlite3.Connection, claim: Claim, reflections: Sequence[Reflection], now: datetime
) -> None:
    ids = (claim.session.agent_id, claim.session.session_id)
    with writing(conn) as changes:
        _require_claim(conn, claim)
        conn.execute(
            f"UPDATE messages SET formed = 1, claim_id = NULL WHERE {_KEY} AND claim_id = ?",
            (*ids, claim.claim_id),
        )
        insert_reflections(conn, changes, reflections)
        conn.execute(
            "UPDATE sessions SET claim_id = NULL, claim_expires_us = NULL, last_formed_us = ?, "
            f"formation_plan = NULL WHERE {_KEY} AND claim_id = ?",
            (to_us(now), *ids, claim.claim_id),
        )
        recount_pending(conn, *ids)


def release_claim(conn: sqlite3.Connection, claim: Claim) -> None:
    """Give the messages back; a claim that is no longer ours is left alone."""
    ids = (claim.session.agent_id, claim.session.session_id)
    with transaction(conn, write=True):
        released = conn.execute(
            "UPDATE sessions SET claim_id = NULL, claim_expires_us = NULL "
            f"WHERE {_KEY} AND claim_id = ?",
            (*ids, claim.claim_id),
        )
        if released.rowcount:
            conn.execute(
                f"UPDATE messages SET claim_id = NULL WHERE {_KEY} AND claim_id = ?",
                (*ids, claim.claim_id),
            )


def _require_claim(conn: sqlite3.Connection, claim: Claim) -> None:
    row = conn.execute(
        f"SELECT claim_id FROM sessions WHERE {_KEY}",
        (claim.session.agent_id, claim.session.session_id),
    ).fetchone()
    if row is None or row[0] != claim.claim_id:
        raise ConflictError(
            f"claim {claim.claim_id!r} on session {claim.session.session_id!r} was lost: "
            "it expired and another worker took the messages"
        )
