"""A session row keeps its layout: the profile column is the JSON it always was.

``MAIN_ROW`` is what the embedded store wrote before ``SessionState`` held its profile as
one value (captured from that code); it must read back the same and be written the same, so
no stored file needs a migration.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.sessions.rows import profile_doc, state_from_row
from eden_memory.domain.errors import StoreCorruptedError
from tests.unit.adapters.stored_sessions import PROFILE, T, record_claim_and_end

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
    async with await open_sqlite(path) as stores:
        await record_claim_and_end(stores)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT * FROM sessions").fetchall() == [MAIN_ROW]


def test_an_agents_own_settings_are_one_more_key_of_the_profile_json() -> None:
    doc = '{"user_ids": [], "settings": {"consolidation": {"thresholds": {"agent": 16}}}}'
    state = state_from_row(("agent-a", "session-1", doc, *MAIN_ROW[3:10]))
    assert state.profile.settings.changes == {"consolidation": {"thresholds": {"agent": 16}}}
    assert json.loads(profile_doc(state.profile))["settings"] == state.profile.settings.changes


def test_damaged_agent_settings_are_a_damaged_row_not_a_default() -> None:
    doc = '{"user_ids": [], "settings": {"facts": {"fifo_limit": -1}}}'
    with pytest.raises(StoreCorruptedError, match="sessions"):
        state_from_row(("agent-a", "session-1", doc, *MAIN_ROW[3:10]))
