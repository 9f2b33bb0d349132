from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.errors import InvalidInputError, SessionUsersError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import SessionState
from eden_memory.domain.participants import (
    check_caller,
    check_participants,
    check_reader,
    participants_refusal,
    user_scope_owner,
)
from eden_memory.domain.profile import SessionProfile
from tests.unit.domain.builders import PROPERTY

ALICE, BOB, CAROL = UserId("alice"), UserId("bob"), UserId("carol")
users = st.lists(st.sampled_from([ALICE, BOB, CAROL]), max_size=4)
pending = st.integers(min_value=0, max_value=5)


def test_another_users_turn_in_a_reused_session_id_is_refused() -> None:
    with pytest.raises(SessionUsersError, match=r"\['alice'\], not \['bob'\].*own session id"):
        check_participants("s1", [ALICE], [BOB], pending=0)


def test_a_group_may_gain_and_lose_members_while_someone_stays() -> None:
    assert participants_refusal([ALICE, BOB], [ALICE, BOB, CAROL], pending=3) is None
    assert participants_refusal([ALICE, BOB], [BOB, CAROL], pending=3) is None
    assert participants_refusal([ALICE], [ALICE, BOB], pending=3) is None


def test_pending_words_of_a_group_are_not_filed_as_one_members_memory() -> None:
    reason = participants_refusal([ALICE, BOB], [ALICE], pending=2)
    assert reason is not None
    assert "2 messages" in reason
    assert "alice's memory" in reason
    assert participants_refusal([ALICE, BOB], [ALICE], pending=0) is None


def test_an_agent_only_session_may_learn_its_user() -> None:
    assert participants_refusal([], [ALICE], pending=4) is None


def test_the_refusal_is_bad_input_not_a_store_failure() -> None:
    assert issubclass(SessionUsersError, InvalidInputError)


@PROPERTY
@given(users, pending)
def test_the_same_users_in_any_order_are_always_accepted(given_users: list[UserId], n: int) -> None:
    assert participants_refusal(given_users, list(reversed(given_users)), n) is None


@PROPERTY
@given(users, users, pending)
def test_no_users_memory_can_receive_words_recorded_without_them(
    stored: list[UserId], given_users: list[UserId], n: int
) -> None:
    owner = user_scope_owner(given_users)
    accepted = participants_refusal(stored, given_users, n) is None
    if accepted and n > 0 and stored and owner is not None:
        assert set(stored) == {owner}  # the pending words were that user's alone


@PROPERTY
@given(users, users, pending)
def test_disjoint_users_are_always_refused(
    stored: list[UserId], given_users: list[UserId], n: int
) -> None:
    if stored and given_users and set(stored).isdisjoint(given_users):
        assert participants_refusal(stored, given_users, n) is not None


@PROPERTY
@given(users)
def test_the_user_scope_belongs_to_a_session_of_exactly_one_user(given_users: list[UserId]) -> None:
    owner = user_scope_owner(given_users)
    assert (owner is not None) == (len(set(given_users)) == 1)


def _session(stored: list[UserId], n: int) -> SessionState:
    profile = SessionProfile(AgentId("nova"), SessionId("s1"), tuple(stored))
    return SessionState(profile=profile, pending_messages=n)


def _refused(
    check: Callable[[SessionState, list[UserId]], None], session: SessionState, given: list[UserId]
) -> bool:
    try:
        check(session, given)
    except SessionUsersError:
        return True
    return False


def test_another_users_conversation_reads_nothing_of_a_reused_session_id() -> None:
    with pytest.raises(SessionUsersError, match=r"'s1'.*\['alice'\], not \['bob'\]"):
        check_reader(_session([ALICE], 0), [BOB])
    with pytest.raises(SessionUsersError, match="own session id"):
        check_caller(_session([ALICE], 3), [BOB])


def test_a_session_not_recorded_yet_may_be_read_by_anyone() -> None:
    check_reader(None, [BOB])
    check_caller(None, [BOB])


def test_a_group_member_may_end_the_session_whose_words_it_may_not_read_alone() -> None:
    group = _session([ALICE, BOB], 2)
    with pytest.raises(SessionUsersError, match="not formed yet"):
        check_reader(group, [ALICE])
    check_caller(group, [ALICE])


@PROPERTY
@given(users, users, pending)
def test_a_read_is_refused_exactly_when_the_conversations_turn_would_be(
    stored: list[UserId], given_users: list[UserId], n: int
) -> None:
    turn_refused = participants_refusal(stored, given_users, n) is not None
    assert _refused(check_reader, _session(stored, n), given_users) == turn_refused


@PROPERTY
@given(users, users, pending)
def test_a_caller_is_refused_exactly_when_the_session_is_another_users(
    stored: list[UserId], given_users: list[UserId], n: int
) -> None:
    another_users = bool(stored and given_users and set(stored).isdisjoint(given_users))
    assert _refused(check_caller, _session(stored, n), given_users) == another_users
