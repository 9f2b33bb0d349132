"""``SqliteSessions``: the ``SessionStore`` port on the store file.

Turns, claims and the session lifecycle. Every write is one ``BEGIN IMMEDIATE`` transaction
on the writer, which holds SQLite's write lock from its first statement: a claim's check (no
live claim, enough pending) and its take (``claims``) happen with no other writer in
between, in this process or any other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from eden_memory.adapters.stores.sqlite.codec import to_us
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.reflection_rows import insert_reflections
from eden_memory.adapters.stores.sqlite.sessions.claims import formation_plan, require_claim, take
from eden_memory.adapters.stores.sqlite.sessions.rows import (
    KEY,
    SESSION_COLUMNS,
    message_rows,
    profile_doc,
    read_state,
    recount_pending,
    state_from_row,
)
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_writer
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import Claim, Message, Reflection, SessionState
from eden_memory.domain.participants import (
    check_participants,
    outlives_member,
    users_after_turn,
)
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage


class SqliteSessions:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    @on_writer
    def record_messages(
        self,
        conn: sqlite3.Connection,
        profile: SessionProfile,
        messages: Sequence[PendingMessage],
        now: datetime,
    ) -> SessionState:
        ids = (profile.agent_id, profile.session_id)
        with transaction(conn, write=True):
            was = read_state(conn, *ids)
            if was is not None:
                check_participants(
                    profile.session_id, was.profile.user_ids, profile.user_ids, was.pending_messages
                )
                users = users_after_turn(was.profile.user_ids, profile.user_ids)
                profile = replace(profile, user_ids=users)
            conn.execute(
                "INSERT INTO sessions (agent_id, session_id, profile, last_activity_us) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, session_id) DO UPDATE SET "
                "profile = excluded.profile, last_activity_us = excluded.last_activity_us",
                (*ids, profile_doc(profile), to_us(now)),
            )
            # Everyone who ever took part stays listed, so erasing a user finds every session.
            conn.executemany(
                "INSERT OR IGNORE INTO session_users (agent_id, user_id, session_id) "
                "VALUES (?, ?, ?)",
                [(profile.agent_id, user, profile.session_id) for user in profile.user_ids],
            )
            conn.executemany(
                "INSERT INTO messages (agent_id, session_id, message_id, author_id, sent_us, "
                "weighted_tokens, doc) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (agent_id, session_id, message_id) DO NOTHING",
                message_rows(ids, [p.heard_by(profile.user_ids) for p in messages]),
            )
            recount_pending(conn, *ids)
            state = read_state(conn, *ids)
        assert state is not None
        return state

    @on_reader
    def get_session(
        self, conn: sqlite3.Connection, agent_id: AgentId, session_id: SessionId
    ) -> SessionState | None:
        return read_state(conn, agent_id, session_id)

    @on_writer
    def claim_messages(
        self,
        conn: sqlite3.Connection,
        agent_id: AgentId,
        session_id: SessionId,
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
            messages = take(conn, ids, claim_id, (now, expires), limit)
            if messages is None:
                return None
            claimed = read_state(conn, *ids)
            plan = formation_plan(conn, ids)
        assert claimed is not None
        return Claim(
            claim_id=claim_id,
            session=claimed,
            messages=messages,
            claimed_at=now,
            expires_at=expires,
            plan=plan,
        )

    @on_writer
    def save_plan(self, conn: sqlite3.Connection, claim: Claim, plan: str) -> None:
        with transaction(conn, write=True):
            saved = conn.execute(
                f"UPDATE sessions SET formation_plan = ? WHERE {KEY} AND claim_id = ?",
                (plan, claim.session.agent_id, claim.session.session_id, claim.claim_id),
            )
            if saved.rowcount != 1:
                require_claim(conn, claim)

    @on_writer
    def complete_claim(
        self,
        conn: sqlite3.Connection,
        claim: Claim,
        reflections: Sequence[Reflection],
        now: datetime,
    ) -> None:
        ids = (claim.session.agent_id, claim.session.session_id)
        with self._handle.writing(conn) as changes:
            require_claim(conn, claim)
            conn.execute(
                f"UPDATE messages SET formed = 1, claim_id = NULL WHERE {KEY} AND claim_id = ?",
                (*ids, claim.claim_id),
            )
            insert_reflections(conn, changes, reflections)
            conn.execute(
                "UPDATE sessions SET claim_id = NULL, claim_expires_us = NULL, "
                f"last_formed_us = ?, formation_plan = NULL WHERE {KEY} AND claim_id = ?",
                (to_us(now), *ids, claim.claim_id),
            )
            recount_pending(conn, *ids)

    @on_writer
    def release_claim(self, conn: sqlite3.Connection, claim: Claim) -> None:
        """Give the messages back; a claim that is no longer ours is left alone."""
        ids = (claim.session.agent_id, claim.session.session_id)
        with transaction(conn, write=True):
            released = conn.execute(
                "UPDATE sessions SET claim_id = NULL, claim_expires_us = NULL "
                f"WHERE {KEY} AND claim_id = ?",
                (*ids, claim.claim_id),
            )
            if released.rowcount:
                conn.execute(
                    f"UPDATE messages SET claim_id = NULL WHERE {KEY} AND claim_id = ?",
                    (*ids, claim.claim_id),
                )

    @on_writer
    def end_session(
        self, conn: sqlite3.Connection, agent_id: AgentId, session_id: SessionId, now: datetime
    ) -> SessionState | None:
        with transaction(conn, write=True):
            conn.execute(
                f"UPDATE sessions SET ended_us = ? WHERE {KEY}", (to_us(now), agent_id, session_id)
            )
            return read_state(conn, agent_id, session_id)

    @on_reader
    def cold_sessions(
        self, conn: sqlite3.Connection, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        rows = conn.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE last_activity_us <= ? "
            "AND pending_messages >= ? ORDER BY last_activity_us, agent_id, session_id LIMIT ?",
            (to_us(idle_before), min_messages, limit),
        )
        return [state_from_row(row) for row in rows]

    @on_reader
    def sessions_of_user(
        self, conn: sqlite3.Connection, agent_id: AgentId, user_id: UserId
    ) -> list[SessionState]:
        rows = conn.execute(
            f"SELECT {', '.join('s.' + c.strip() for c in SESSION_COLUMNS.split(','))} "
            "FROM session_users u JOIN sessions s USING (agent_id, session_id) "
            "WHERE u.agent_id = ? AND u.user_id = ? ORDER BY s.session_id",
            (agent_id, user_id),
        )
        return [state_from_row(row) for row in rows]

    @on_writer
    def delete_session(
        self, conn: sqlite3.Connection, agent_id: AgentId, session_id: SessionId
    ) -> int:
        with transaction(conn, write=True):
            removed = conn.execute(f"DELETE FROM messages WHERE {KEY}", (agent_id, session_id))
            conn.execute(f"DELETE FROM sessions WHERE {KEY}", (agent_id, session_id))
            return removed.rowcount

    @on_writer
    def delete_messages_by_author(
        self, conn: sqlite3.Connection, agent_id: AgentId, author_id: str
    ) -> int:
        with transaction(conn, write=True):
            touched = conn.execute(
                "DELETE FROM messages WHERE agent_id = ? AND author_id = ? RETURNING session_id",
                (agent_id, author_id),
            ).fetchall()
            for session_id in {row[0] for row in touched}:
                recount_pending(conn, agent_id, session_id)
            return len(touched)

    @on_writer
    def drop_pending_context(
        self,
        conn: sqlite3.Connection,
        agent_id: AgentId,
        session_id: SessionId,
        remaining: Sequence[UserId],
    ) -> int:
        with transaction(conn, write=True):
            rows = conn.execute(
                f"SELECT message_id, doc FROM messages WHERE {KEY} AND formed = 0",
                (agent_id, session_id),
            ).fetchall()
            doomed = [
                (agent_id, session_id, row[0])
                for row in rows
                if not outlives_member(Message.model_validate_json(row[1]), remaining)
            ]
            conn.executemany(f"DELETE FROM messages WHERE {KEY} AND message_id = ?", doomed)
            recount_pending(conn, agent_id, session_id)
            return len(doomed)

    @on_writer
    def remove_user(
        self, conn: sqlite3.Connection, agent_id: AgentId, user_id: UserId
    ) -> list[SessionId]:
        """Take the user out of every session profile of the agent that names them (erasure)."""
        with transaction(conn, write=True):
            rows = conn.execute(
                "DELETE FROM session_users WHERE agent_id = ? AND user_id = ? RETURNING session_id",
                (agent_id, user_id),
            ).fetchall()
            changed: list[SessionId] = []
            for session_id in sorted({row[0] for row in rows}):
                state = read_state(conn, agent_id, session_id)
                if state is None or user_id not in state.profile.user_ids:
                    continue
                users = [u for u in state.profile.user_ids if u != user_id]
                conn.execute(
                    f"UPDATE sessions SET profile = ? WHERE {KEY}",
                    (profile_doc(state.profile, user_ids=users), agent_id, session_id),
                )
                changed.append(SessionId(session_id))
            return changed
