"""Sessions, their pending messages and the claims formation workers take on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import Claim, Message, Reflection, SessionState
from eden_memory.domain.participants import present_to
from eden_memory.domain.profile import SessionProfile


@dataclass(frozen=True)
class PendingMessage:
    message: Message
    weighted_tokens: float

    def heard_by(self, users: Sequence[UserId]) -> PendingMessage:
        """The message stamped with who was present when it was recorded (``present_to``)."""
        return replace(self, message=present_to(self.message, users))


class SessionStore(Protocol):
    """Sessions, their pending messages and the claims on them. An adapter must make a claim
    atomic across workers (at most one unexpired claim per session), keep a saved plan until
    the claim completes, and ignore a message id recorded twice; ``complete_claim`` buffers its
    reflections in the ``BufferStore`` of the same ``Stores`` together with the claim's end
    (contract: ``sessions``, ``claims``)."""

    async def record_messages(
        self, profile: SessionProfile, messages: Sequence[PendingMessage], now: datetime
    ) -> SessionState:
        """Append messages to the session's pending work and refresh its profile.

        Each new message is stored stamped with the session's users after this turn
        (``PendingMessage.heard_by``): who was present when it was said, which formation
        credits it to. A message id already recorded for the session is ignored (safe to
        retry a turn), its stamp kept.
        Creates the session on first use; sets ``last_activity_at`` to ``now``.
        """
        ...

    async def get_session(
        self, agent_id: AgentId, session_id: SessionId
    ) -> SessionState | None: ...

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
        """Atomically take up to ``limit`` oldest pending messages (by ``sent_at``, then recording
        order) for one worker; an expired claim's messages can be taken again.

        Succeeds only when no unexpired claim exists and at least ``min_messages`` are pending;
        of any number of concurrent callers, at most one gets a claim. The claim carries the
        plan saved on the session by an earlier claim that did not complete (``save_plan``).

        ``claim_id`` names the claimant: the same ``claim_id`` asking again while its claim is
        live gets the claim back, renewed to ``now + ttl_seconds`` (a retry whose first reply
        was lost must not wait for the claim to expire); any other is refused until then.
        """
        ...

    async def save_plan(self, claim: Claim, plan: str) -> None:
        """Keep a formation's plan on its session, replacing any earlier one, until a
        ``complete_claim`` of the session clears it; releasing or losing the claim keeps it.

        Raises ``ConflictError`` when the claim is no longer the session's current one.
        """
        ...

    async def complete_claim(
        self, claim: Claim, reflections: Sequence[Reflection], now: datetime
    ) -> None:
        """Finish a formation: buffer its reflections, mark its messages formed and clear the
        session's saved plan, together.

        Raises ``ConflictError`` when the claim is no longer the session's current one (it
        expired and another worker took the messages, or it was released).
        """
        ...

    async def release_claim(self, claim: Claim) -> None:
        """Give the messages back after a failure, so a retry need not wait for expiry."""
        ...

    async def end_session(
        self, agent_id: AgentId, session_id: SessionId, now: datetime
    ) -> SessionState | None: ...

    async def cold_sessions(
        self, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        """Sessions last active at or before ``idle_before`` with ``min_messages`` or more pending.

        A listed session may be claimed by another worker meanwhile; claiming it then fails.
        """
        ...


class SessionRecords(Protocol):
    """A user's sessions as management and erasure see them: listed, removed, their words taken
    out. The same adapter object implements it and ``SessionStore`` (contract: ``sessions``)."""

    async def sessions_of_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionState]: ...

    async def delete_session(self, agent_id: AgentId, session_id: SessionId) -> int:
        """Remove a session's messages and state; returns messages removed."""
        ...

    async def delete_messages_by_author(self, agent_id: AgentId, author_id: str) -> int:
        """Remove one author's messages from every session of the agent, formed or not: those
        it is filed under (``domain.models.provenance.filed_author``), so a user's words with
        no author said with no other user present go too."""
        ...

    async def drop_pending_context(
        self, agent_id: AgentId, session_id: SessionId, remaining: Sequence[UserId]
    ) -> int:
        """Erasure of a group member: remove the session's unformed messages except the words
        the ``remaining`` members wrote (``domain.participants.outlives_member``); returns
        messages removed. Formed messages are left as they are."""
        ...

    async def remove_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionId]:
        """Erasure: take ``user_id`` out of the profile of every session of the agent that
        names it; returns those sessions. ``sessions_of_user`` finds none of them after."""
        ...
