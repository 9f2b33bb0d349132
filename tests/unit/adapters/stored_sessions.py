"""The writes behind the captured session layouts (``MAIN_DOCUMENT``, ``MAIN_ROW``).

Both were captured from the code before ``SessionState`` held its profile as one value: a
turn of three messages recorded with ``PROFILE``, two of them claimed, the session ended.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from eden_memory.domain.ids import AgentId, MessageId, SessionId, UserId
from eden_memory.domain.models import Message, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage, Stores

# Microseconds below the millisecond: the Mongo codec's ``_us`` map is part of the layout.
T = datetime(2026, 1, 15, 12, 0, 0, 123456, tzinfo=UTC)
PROFILE = SessionProfile(
    AgentId("agent-a"),
    SessionId("session-1"),
    (UserId("user-1"), UserId("user-2"), UserId("user-1")),
    user_memory_enabled=False,
    memory_instructions="Remember birthdays — ü",
    premium=True,
)


async def record_claim_and_end(stores: Stores, profile: SessionProfile = PROFILE) -> None:
    sent = [
        PendingMessage(
            Message(id=MessageId(f"m{i}"), role=Role.USER, text=f"hi {i}", sent_at=T), 2.5
        )
        for i in range(3)
    ]
    await stores.sessions.record_messages(profile, sent, T)
    claim = await stores.sessions.claim_messages(
        profile.agent_id, profile.session_id, "claim-1", T + timedelta(seconds=1), 60.0, 1, 2
    )
    assert claim is not None
    assert claim.session.profile == profile
    ended = T + timedelta(seconds=2)
    await stores.sessions.end_session(profile.agent_id, profile.session_id, ended)
