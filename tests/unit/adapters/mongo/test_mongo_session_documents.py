"""A session document keeps its flat layout: the profile is nested only in code.

``MAIN_DOCUMENT`` is what the store wrote before ``SessionState`` held its profile as one
value (captured from that code, mongomock, string ids); it must read back the same and be
written the same (``stored_sessions``), so no stored session needs a migration.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bson import ObjectId
from hypothesis import given, settings
from hypothesis import strategies as st
from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.adapters.stores.mongo.codec import IdCodec
from eden_memory.adapters.stores.mongo.documents import session_from_document
from eden_memory.adapters.stores.mongo.messages import profile_update, session_filter
from eden_memory.adapters.stores.mongo.options import IdMode, MongoStoreOptions
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import SessionState
from eden_memory.domain.profile import SessionProfile
from tests.unit.adapters.stored_sessions import PROFILE, T, record_claim_and_end

MAIN_DOCUMENT: dict[str, Any] = {
    "_id": "agent-a|session-1",
    "agent_id": "agent-a",
    "session_id": "session-1",
    "last_activity_at": datetime(2026, 1, 15, 12, 0, 0, 123000),
    "_us": {"last_activity_at": 456, "claim_expires_at": 456, "ended_at": 456},
    "user_ids": ["user-1", "user-2"],
    "user_memory_enabled": False,
    "agent_memory_enabled": True,
    "memory_instructions": "Remember birthdays — ü",
    "premium": True,
    "claim_id": "claim-1",
    "claim_expires_at": datetime(2026, 1, 15, 12, 1, 1, 123000),
    "last_formed_at": None,
    "ended_at": datetime(2026, 1, 15, 12, 0, 2, 123000),
    "next_seq": 3,
    "pending_messages": 3,
    "pending_tokens": 7.5,
}
OIDS = [ObjectId(f"6b068a74f77f90a485f9d36{i}") for i in range(2, 6)]


def _rest(state: SessionState) -> tuple[object, ...]:
    """Everything a state holds besides its profile."""
    return (
        state.agent_id,
        state.session_id,
        state.pending_messages,
        state.pending_tokens,
        state.last_activity_at,
        state.last_formed_at,
        state.ended_at,
        state.claim_id,
        state.claim_expires_at,
    )


def test_a_document_written_before_the_profile_was_nested_reads_back_the_same() -> None:
    state = session_from_document(MAIN_DOCUMENT, IdCodec(IdMode.STRING))
    assert state.profile == PROFILE
    assert state.profile.user_ids == ("user-1", "user-2")
    assert _rest(state) == (
        "agent-a",
        "session-1",
        3,
        7.5,
        T,
        None,
        T + timedelta(seconds=2),
        "claim-1",
        T + timedelta(seconds=61),
    )


async def test_recording_writes_the_document_as_before() -> None:
    database: Any = AsyncMongoMockClient()["eden_layout"]
    await record_claim_and_end(mongo_stores(database), PROFILE)
    assert await database["memory2_sessions"].find_one({}) == MAIN_DOCUMENT


async def test_object_ids_are_read_back_as_their_strings() -> None:
    database: Any = AsyncMongoMockClient()["eden_layout_oid"]
    stores = mongo_stores(database, MongoStoreOptions(id_mode=IdMode.OBJECT_ID))
    profile = SessionProfile(
        AgentId(str(OIDS[0])), SessionId(str(OIDS[1])), (UserId(str(OIDS[2])), UserId(str(OIDS[3])))
    )
    await record_claim_and_end(stores, profile)
    document = await database["memory2_sessions"].find_one({})
    assert document is not None
    assert (document["agent_id"], document["session_id"], document["user_ids"]) == (
        OIDS[0],
        OIDS[1],
        OIDS[2:],
    )
    state = await stores.sessions.get_session(profile.agent_id, profile.session_id)
    assert state is not None
    assert state.profile == profile


_ids = st.from_regex(r"[a-z0-9][a-z0-9._:@+\-/=]{0,20}", fullmatch=True)


@settings(max_examples=80, deadline=None)
@given(
    agent=_ids,
    session=_ids,
    users=st.lists(_ids, max_size=4),
    user_memory=st.booleans(),
    agent_memory=st.booleans(),
    instructions=st.text(max_size=40),
    premium=st.booleans(),
)
def test_any_profile_is_flattened_and_nested_again(
    agent: str,
    session: str,
    users: list[str],
    user_memory: bool,
    agent_memory: bool,
    instructions: str,
    premium: bool,
) -> None:
    profile = SessionProfile(
        AgentId(agent),
        SessionId(session),
        tuple(UserId(u) for u in users),
        user_memory_enabled=user_memory,
        agent_memory_enabled=agent_memory,
        memory_instructions=instructions,
        premium=premium,
    )
    ids = IdCodec(IdMode.STRING)
    update = profile_update(ids, profile, T.replace(microsecond=0))
    document = {**session_filter(ids, agent, session), **update["$setOnInsert"], **update["$set"]}
    assert set(document) >= {"user_ids", "premium", "memory_instructions"}  # flat, as stored
    assert "profile" not in document
    assert session_from_document(document, ids).profile == profile
