"""``SqliteSessions``: the ``SessionStore`` port on the store file.

Turns, claims and the session lifecycle. Every write is one ``BEGIN IMMEDIATE``
transaction on the writer, so a claim holds across processes that share the file
(``claims``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite import claims, sessions
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import Claim, Reflection, SessionState
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage


class SqliteSessions:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    async def record_messages(
        self, profile: SessionProfile, messages: Sequence[PendingMessage], now: datetime
    ) -> SessionState:
        return await self._handle.writer.run(
            lambda c: sessions.record_messages(c, profile, messages, now)
        )

    async def get_session(self, agent_id: AgentId, session_id: SessionId) -> SessionState | None:
        return await self._handle.reader.run(lambda c: sessions.read_state(c, agent_id, session_id))

    async def claim_messages(
        self,
        agent_id: AgentId,
        session_id: SessionId,
        claim_id: str,
        now: datetime,
        ttl_seconds: float,
        min_messages: int,
        limit: int,
    ) -> Claim | None:
        return await self._handle.writer.run(
            lambda c: claims.claim_messages(
                c, agent_id, session_id, claim_id, now, ttl_seconds, min_messages, limit
            )
        )

    async def save_plan(self, claim: Claim, plan: str) -> None:
        await self._handle.writer.run(lambda c: claims.save_plan(c, claim, plan))

    async def complete_claim(
        self, claim: Claim, reflections: Sequence[Reflection], now: datetime
    ) -> None:
        await self._handle.writer.run(lambda c: claims.complete_claim(c, claim, reflections, now))

    async def release_claim(self, claim: Claim) -> None:
        await self._handle.writer.run(lambda c: claims.release_claim(c, claim))

    async def end_session(
        self, agent_id: AgentId, session_id: SessionId, now: datetime
    ) -> SessionState | None:
        return await self._handle.writer.run(
            lambda c: sessions.end_session(c, agent_id, session_id, now)
        )

    async def cold_sessions(
        self, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        return await self._handle.reader.run(
            lambda c: sessions.cold_sessions(c, idle_before, min_messages, limit)
        )

    async def sessions_of_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionState]:
        return await self._handle.reader.run(
            lambda c: sessions.sessions_of_user(c, agent_id, user_id)
        )

    async def delete_session(self, agent_id: AgentId, session_id: SessionId) -> int:
        return await self._handle.writer.run(
            lambda c: sessions.delete_session(c, agent_id, session_id)
        )

    async def delete_messages_by_author(self, agent_id: AgentId, author_id: str) -> int:
        return await self._handle.writer.run(
            lambda c: sessions.delete_messages_by_author(c, agent_id, author_id)
        )

    async def remove_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionId]:
        changed = await self._handle.writer.run(
            lambda c: sessions.remove_user(c, agent_id, user_id)
        )
        return [SessionId(s) for s in changed]
