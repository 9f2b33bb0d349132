"""A session row keeps its layout: the profile column is the JSON it always was.

``MAIN_ROW`` is what the embedded store wrote before ``SessionState`` held its profile as
one value (captured from that code); it must read back the same and be written the same, so
no stored file needs a migration.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.sessions import state_from_row
from eden_memory.domain.ids import AgentId, MessageId, SessionId, UserId
from eden_memory.domain.models import Message, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage

T = datetime(2026, 1, 15, 12, 0, 0, 123456, tzinfo=UTC)
PROFILE = SessionProfile(
    AgentId("agent-a"),
    SessionId("session-1"),
    (UserId("user-1"), UserId("user-2"), UserId("user-1")),
    user_memory_enabled=False,
    memory_instructions="Remember birthdays — ü",
    premium=True,
)
MAIN_ROW = (
    "agent-a",
    "session-1",
    '{"user_ids": ["user-1", "user-2"], "user_memory_enabled": false, '
    '"agent_memory_enabled": true, "memory_instructions": "Remember birthdays \\u2014 \\u00fc", '
    '"premium": true}',
    3,
    7.5,
    1768478400123456,
    None,
    1768478402123456,
    "claim-1",
    1768478461123456,
    None,  # formation_plan: not part of the state
)


def test_a_row_written_before_the_profile_was_nested_reads_back_the_same() -> None:
    state = state_from_row(MAIN_ROW[:10])
    assert state.profile == PROFILE
    assert state.profile.user_ids == ("user-1", "user-2")
    assert (state.agent_id, state.session_id) == ("agent-a", "session-1")
    assert (state.pending_messages, state.pending_tokens) == (3, 7.5)
    assert (state.last_activity_at, state.last_formed_at) == (T, None)
    assert state.ended_at == T + timedelta(seconds=2)
    assert (state.claim_id, state.claim_expires_at) == ("claim-1", T + timedelta(seconds=61))


async def test_recording_writes_the_row_as_before(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    sent = [
        PendingMessage(
            Message(id=MessageId(f"m{i}"), role=Role.USER, text=f"hi {i}", sent_at=T), 2.5
        )
        for i in range(3)
    ]
    async with await open_sqlite(path) as stores:
        await stores.sessions.record_messages(PROFILE, sent, T)
        later = T + timedelta(seconds=1)
        claim = await stores.sessions.claim_messages(
            PROFILE.agent_id, PROFILE.session_id, "claim-1", later, 60.0, 1, 2
        )
        assert claim is not None
        assert claim.session.profile == PROFILE
        await stores.sessions.end_session(
            PROFILE.agent_id, PROFILE.session_id, T + timedelta(seconds=2)
        )
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT * FROM sessions").fetchall() == [MAIN_ROW]
