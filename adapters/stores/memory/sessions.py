"""Sessions: pending messages, and the claims that hand them to exactly one worker."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from eden_memory.adapters.stores.memory.state import StateHolder, StoredMessage, StoredSession
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import Claim, Reflection, SessionState
from eden_memory.domain.models.provenance import filed_author
from eden_memory.domain.participants import (
    check_participants,
    outlives_member,
    users_after_turn,
)
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage


class InMemorySessions(StateHolder):
    """The ``SessionStore`` of the in-memory store; ``complete_claim`` buffers into the shared
    state the ``InMemoryBuffers`` read."""

    async def record_messages(
        self, profile: SessionProfile, messages: Sequence[PendingMessage], now: datetime
    ) -> SessionState:
        await self._turn()
        address = (profile.agent_id, profile.session_id)
        entry = self._state.sessions.get(address)
        if entry is None:
            entry = StoredSession(SessionState(profile=profile))
            self._state.sessions[address] = entry
        else:
            was = entry.state
            check_participants(
                profile.session_id, was.profile.user_ids, profile.user_ids, was.pending_messages
            )
            users = users_after_turn(was.profile.user_ids, profile.user_ids)
            profile = replace(profile, user_ids=users)
        for pending in messages:
            if pending.message.id not in entry.messages:
                seq = next(self._state.sequence)
                heard = pending.heard_by(profile.user_ids)
                entry.messages[pending.message.id] = StoredMessage(
                    heard.message, heard.weighted_tokens, seq
                )
        refreshed = entry.state.evolve(profile=profile, last_activity_at=now)
        entry.state = entry.with_pending_counts(refreshed)
        return entry.state

    async def get_session(self, agent_id: AgentId, session_id: SessionId) -> SessionState | None:
        await self._turn()
        entry = self._state.sessions.get((agent_id, session_id))
        return entry.state if entry is not None else None

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
        await self._turn()  # the only await: check and take below happen in one step
        entry = self._state.sessions.get((agent_id, session_id))
        if entry is None or entry.state.held_by_another(claim_id, now):
            return None
        pending = entry.pending()
        taken = pending[: max(limit, 0)]
        if not taken or len(pending) < min_messages:
            return None
        for message in pending:  # an expired claim's messages are free again
            message.claim_id = None
        for message in taken:
            message.claim_id = claim_id
        expires = now + timedelta(seconds=ttl_seconds)
        entry.state = entry.state.evolve(claim_id=claim_id, claim_expires_at=expires)
        return Claim(
            claim_id=claim_id,
            session=entry.state,
            messages=tuple(m.message for m in taken),
            claimed_at=now,
            expires_at=expires,
            plan=entry.plan,
        )

    async def save_plan(self, claim: Claim, plan: str) -> None:
        await self._turn()
        self._require(claim).plan = plan

    async def complete_claim(
        self, claim: Claim, reflections: Sequence[Reflection], now: datetime
    ) -> None:
        await self._turn()
        entry = self._require(claim)
        for message in entry.messages.values():
            if message.claim_id == claim.claim_id:
                message.formed = True
                message.claim_id = None
        self._state.buffer(reflections)
        entry.plan = None
        done = entry.state.evolve(last_formed_at=now, claim_id=None, claim_expires_at=None)
        entry.state = entry.with_pending_counts(done)

    async def release_claim(self, claim: Claim) -> None:
        await self._turn()
        entry = self._held(claim)
        if entry is None:  # not ours any more: nothing to give back
            return
        for message in entry.messages.values():
            if message.claim_id == claim.claim_id:
                message.claim_id = None
        entry.state = entry.state.evolve(claim_id=None, claim_expires_at=None)

    def _require(self, claim: Claim) -> StoredSession:
        entry = self._held(claim)
        if entry is None:
            raise ConflictError(
                f"claim {claim.claim_id!r} was lost: it expired and another worker took "
                "the messages, or it was released"
            )
        return entry

    def _held(self, claim: Claim) -> StoredSession | None:
        """The claim's session, if this claim is still the one on it."""
        entry = self._state.sessions.get((claim.session.agent_id, claim.session.session_id))
        if entry is None or entry.state.claim_id != claim.claim_id:
            return None
        return entry

    async def end_session(
        self, agent_id: AgentId, session_id: SessionId, now: datetime
    ) -> SessionState | None:
        await self._turn()
        entry = self._state.sessions.get((agent_id, session_id))
        if entry is None:
            return None
        entry.state = entry.state.evolve(ended_at=now)
        return entry.state

    async def cold_sessions(
        self, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        await self._turn()
        cold = [
            e.state
            for e in self._state.sessions.values()
            if e.state.last_activity_at is not None
            and e.state.last_activity_at <= idle_before
            and e.state.pending_messages >= min_messages
        ]
        cold.sort(key=lambda s: (s.last_activity_at, s.agent_id, s.session_id))
        return cold[: max(limit, 0)]

    async def sessions_of_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionState]:
        await self._turn()
        found = [
            e.state
            for (agent, _), e in self._state.sessions.items()
            if agent == agent_id and user_id in e.state.profile.user_ids
        ]
        return sorted(found, key=lambda s: s.session_id)

    async def delete_session(self, agent_id: AgentId, session_id: SessionId) -> int:
        await self._turn()
        entry = self._state.sessions.pop((agent_id, session_id), None)
        return len(entry.messages) if entry is not None else 0

    async def delete_messages_by_author(self, agent_id: AgentId, author_id: str) -> int:
        await self._turn()
        removed = 0
        for (agent, _), entry in self._state.sessions.items():
            if agent != agent_id:
                continue
            doomed = [i for i, m in entry.messages.items() if filed_author(m.message) == author_id]
            for message_id in doomed:
                del entry.messages[message_id]
            if doomed:
                entry.state = entry.with_pending_counts(entry.state)
            removed += len(doomed)
        return removed

    async def drop_pending_context(
        self, agent_id: AgentId, session_id: SessionId, remaining: Sequence[UserId]
    ) -> int:
        await self._turn()
        entry = self._state.sessions.get((agent_id, session_id))
        if entry is None:
            return 0
        doomed = [m for m in entry.pending() if not outlives_member(m.message, remaining)]
        for stored in doomed:
            del entry.messages[stored.message.id]
        entry.state = entry.with_pending_counts(entry.state)
        return len(doomed)

    async def remove_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionId]:
        await self._turn()
        changed: list[SessionId] = []
        for (agent, session_id), entry in sorted(self._state.sessions.items()):
            profile = entry.state.profile
            if agent != agent_id or user_id not in profile.user_ids:
                continue
            users = tuple(u for u in profile.user_ids if u != user_id)
            entry.state = entry.state.evolve(profile=replace(profile, user_ids=users))
            changed.append(session_id)
        return changed
