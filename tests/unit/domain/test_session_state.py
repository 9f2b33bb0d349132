"""A session state holds its profile as one value: validated once, compared and hashed with it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import SessionState
from eden_memory.domain.profile import SessionProfile
from tests.unit.domain.builders import PROPERTY, T0

IDS = st.from_regex(r"[A-Za-z0-9][\w.:@+\-/=]{0,12}", fullmatch=True)
BAD_AGENT = "agent_id 'bad id' is not valid"


@st.composite
def profiles(draw: st.DrawFn) -> SessionProfile:
    return SessionProfile(
        AgentId(draw(IDS)),
        SessionId(draw(IDS)),
        tuple(UserId(u) for u in draw(st.lists(IDS, max_size=4))),
        user_memory_enabled=draw(st.booleans()),
        agent_memory_enabled=draw(st.booleans()),
        memory_instructions=draw(st.text(max_size=30)),
        premium=draw(st.booleans()),
    )


def test_the_state_is_addressed_by_its_profiles_agent_and_session() -> None:
    state = SessionState(profile=SessionProfile(AgentId("a1"), SessionId("s1")))
    assert (state.agent_id, state.session_id) == ("a1", "s1")
    assert set(SessionState.model_fields) >= {"profile", "pending_messages"}
    assert not set(SessionState.model_fields) & {"agent_id", "session_id", "user_ids", "premium"}


def test_a_bad_id_is_refused_with_the_profiles_own_error() -> None:
    with pytest.raises(InvalidInputError, match=BAD_AGENT):
        SessionState(profile=SessionProfile(AgentId("bad id"), SessionId("s1")))
    with pytest.raises(ValidationError, match=BAD_AGENT):
        SessionState.model_validate({"profile": {"agent_id": "bad id", "session_id": "s1"}})
    with pytest.raises(ValidationError, match="session_id 's\\$1' is not valid"):
        SessionState.model_validate({"profile": {"agent_id": "a1", "session_id": "s$1"}})
    with pytest.raises(ValidationError, match=r"profile\.user_ids"):
        SessionState.model_validate(
            {"profile": {"agent_id": "a1", "session_id": "s1", "user_ids": "alice"}}
        )
    with pytest.raises(ValidationError, match="profile"):
        SessionState.model_validate({"pending_messages": 1})


def test_a_read_profile_drops_repeated_users_as_a_built_one_does() -> None:
    state = SessionState.model_validate(
        {"profile": {"agent_id": "a1", "session_id": "s1", "user_ids": ["u1", "u2", "u1"]}}
    )
    assert state.profile == SessionProfile(
        AgentId("a1"), SessionId("s1"), (UserId("u1"), UserId("u2"))
    )


def test_states_differ_when_only_their_profiles_do() -> None:
    base = SessionProfile(AgentId("a1"), SessionId("s1"), (UserId("u1"),))
    state = SessionState(profile=base, pending_messages=2)
    premium = SessionState(
        profile=SessionProfile(**{**vars(base), "premium": True}), pending_messages=2
    )
    assert state != premium
    assert len({state, premium, SessionState(profile=base, pending_messages=2)}) == 2


@PROPERTY
@given(profiles(), st.integers(0, 50), st.floats(0, 1e6, allow_nan=False))
def test_a_state_survives_evolve_dump_and_json_with_its_profile(
    profile: SessionProfile, pending: int, tokens: float
) -> None:
    state = SessionState(profile=profile, pending_messages=pending, pending_tokens=tokens)
    later = state.evolve(last_activity_at=T0, claim_id="c1", claim_expires_at=T0 + timedelta(1))
    assert later.profile == profile
    assert later.claim_active(T0)
    assert SessionState.model_validate(state.model_dump()) == state
    again = SessionState.model_validate_json(state.model_dump_json())
    assert again == state
    assert hash(again) == hash(state)
