"""What the store keeps about a session between turns: pending work, activity, claims."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.models.messages import Message
from eden_memory.domain.profile import SessionProfile


class SessionState(Record):
    """A session's memory bookkeeping, with the profile it was last recorded with.

    The profile (toggles, instructions, tier) lets a scheduler form a cold session with
    nothing but the store.
    """

    profile: SessionProfile
    # Recorded and not yet formed, claimed ones included.
    pending_messages: int = Field(default=0, ge=0)
    pending_tokens: float = Field(default=0.0, ge=0.0)
    last_activity_at: UtcTime | None = None
    last_formed_at: UtcTime | None = None
    ended_at: UtcTime | None = None
    claim_id: str | None = None
    claim_expires_at: UtcTime | None = None

    # The session's address in every store (its key), so read here; all else via ``profile``.
    @property
    def agent_id(self) -> AgentId:
        return self.profile.agent_id

    @property
    def session_id(self) -> SessionId:
        return self.profile.session_id

    def claim_active(self, now: datetime) -> bool:
        return self.claim_expires_at is not None and self.claim_expires_at > now

    def held_by_another(self, claim_id: str, now: datetime) -> bool:
        """A live claim of another claimant: ``claim_id`` asking again for its own is let in."""
        return self.claim_active(now) and self.claim_id != claim_id


class Claim(Record):
    """Messages one worker has taken to form; expires so a crash loses nothing.

    ``claim_id`` is the claimant's identity: asking again with it while the claim is live
    gives the claim back (a retry after a lost reply), any other id is refused."""

    claim_id: str
    session: SessionState
    messages: tuple[Message, ...]
    claimed_at: UtcTime
    expires_at: UtcTime
    # The plan an interrupted formation of this session saved before its first write
    # (opaque to the store): a retry carries it out instead of deciding again.
    plan: str | None = None
