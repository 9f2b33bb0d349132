"""What the store keeps about a session between turns: pending work, activity, claims."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.models.messages import Message
from eden_memory.domain.profile import SessionProfile


class SessionState(Record):
    """A session's memory bookkeeping, including a snapshot of how formation must run.

    The snapshot (toggles, instructions, tier) lets a scheduler form a cold session with
    nothing but the store.
    """

    agent_id: AgentId
    session_id: SessionId
    user_ids: tuple[UserId, ...] = ()
    user_memory_enabled: bool = True
    agent_memory_enabled: bool = True
    memory_instructions: str = ""
    premium: bool = False
    # Recorded and not yet formed, claimed ones included.
    pending_messages: int = Field(default=0, ge=0)
    pending_tokens: float = Field(default=0.0, ge=0.0)
    last_activity_at: UtcTime | None = None
    last_formed_at: UtcTime | None = None
    ended_at: UtcTime | None = None
    claim_id: str | None = None
    claim_expires_at: UtcTime | None = None

    @property
    def profile(self) -> SessionProfile:
        """The profile the session was last recorded with."""
        return SessionProfile(
            self.agent_id,
            self.session_id,
            self.user_ids,
            user_memory_enabled=self.user_memory_enabled,
            agent_memory_enabled=self.agent_memory_enabled,
            memory_instructions=self.memory_instructions,
            premium=self.premium,
        )

    def claim_active(self, now: datetime) -> bool:
        return self.claim_expires_at is not None and self.claim_expires_at > now


class Claim(Record):
    """Messages one worker has taken to form; expires so a crash loses nothing."""

    claim_id: str
    session: SessionState
    messages: tuple[Message, ...]
    claimed_at: UtcTime
    expires_at: UtcTime
    # The plan an interrupted formation of this session saved before its first write
    # (opaque to the store): a retry carries it out instead of deciding again.
    plan: str | None = None
