from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import (
    FACT_SCOPES,
    HIERARCHY,
    ActiveScopes,
    AgentMemoryConfig,
    FactVisibility,
    Scope,
    ScopeKey,
)
from tests.unit.domain.builders import PROPERTY

AGENTS = st.sampled_from(["a1", "a2"])
USERS = st.sampled_from(["u1", "u2", "u3"])


def profile(agent: AgentMemoryConfig, *users: str) -> SessionProfile:
    return SessionProfile.of(agent, "s1", list(users))


def config(agent: str = "a1", *, user: bool = True, agent_memory: bool = True) -> AgentMemoryConfig:
    return AgentMemoryConfig(
        AgentId(agent), user_memory_enabled=user, agent_memory_enabled=agent_memory
    )


@st.composite
def requests(draw: st.DrawFn) -> tuple[bool, SessionProfile]:
    agent = draw(AGENTS)
    users = draw(st.lists(USERS, max_size=4))
    agent_config = config(agent, user=draw(st.booleans()), agent_memory=draw(st.booleans()))
    return draw(st.booleans()), profile(agent_config, *users)


def test_a_sole_user_with_everything_enabled_gets_every_scope() -> None:
    active = profile(config(), "u1").scopes(True)
    assert active.scopes == {Scope.SESSION, Scope.USER, Scope.AGENT}
    assert active.user_id == "u1"
    assert active.keys() == (
        ScopeKey.agent("a1"),
        ScopeKey.user("a1", "u1"),
        ScopeKey.session("a1", "s1"),
    )
    assert active.search_offered


def test_a_group_session_has_no_user_scope() -> None:
    active = profile(config(), "u1", "u2").scopes(True)
    assert active.scopes == {Scope.SESSION, Scope.AGENT}
    assert active.user_id is None


def test_the_same_user_twice_is_still_one_user() -> None:
    session = profile(config(), "u1", "u1")
    assert session.user_ids == ("u1",)
    assert not session.is_group
    assert Scope.USER in session.scopes(True).scopes


def test_a_session_without_users_has_no_user_scope() -> None:
    assert profile(config()).scopes(True).scopes == {Scope.SESSION, Scope.AGENT}


def test_session_memory_is_formed_even_with_both_toggles_off() -> None:
    active = profile(config(user=False, agent_memory=False), "u1").scopes(True)
    assert active.scopes == {Scope.SESSION}
    assert not active.search_offered
    assert active.visibility.is_empty


def test_the_master_switch_off_turns_every_scope_off() -> None:
    active = profile(config(), "u1").scopes(False)
    assert active.scopes == frozenset()
    assert active.keys() == ()
    with pytest.raises(InvalidInputError, match="not active"):
        active.key(Scope.SESSION)


def test_the_profile_takes_its_agent_from_the_config_so_they_cannot_disagree() -> None:
    active = profile(config("a2"), "u1").scopes(True)
    keys = active.keys()
    assert {key.agent_id for key in keys} == {"a2"}


@PROPERTY
@given(requests())
def test_a_group_session_never_yields_user_scope(
    request: tuple[bool, SessionProfile],
) -> None:
    enabled, session = request
    active = session.scopes(enabled)
    if session.is_group:
        assert Scope.USER not in active.scopes
        assert active.user_id is None
        assert Scope.USER not in active.visibility.scopes


@PROPERTY
@given(requests())
def test_scopes_follow_the_switches_and_the_sole_user_rule(
    request: tuple[bool, SessionProfile],
) -> None:
    enabled, session = request
    active = session.scopes(enabled)
    if not enabled:
        assert active.scopes == frozenset()
        assert not active.search_offered
        return
    assert Scope.SESSION in active.scopes
    assert (Scope.AGENT in active.scopes) == session.agent_memory_enabled
    sole = len(set(session.user_ids)) == 1
    assert (Scope.USER in active.scopes) == (session.user_memory_enabled and sole)
    assert active.search_offered == bool(active.scopes & {Scope.USER, Scope.AGENT})
    keys = active.keys()
    assert [k.scope for k in keys] == [s for s in HIERARCHY if s in active.scopes]
    assert all(k.agent_id == session.agent_id for k in keys)


@st.composite
def viewers(draw: st.DrawFn) -> FactVisibility:
    enabled, session = draw(requests())
    return session.scopes(enabled).visibility


@PROPERTY
@given(viewers(), AGENTS, st.sampled_from(list(Scope)), st.one_of(st.none(), USERS))
def test_the_visibility_predicate_never_crosses_agents_or_users(
    viewer: FactVisibility, agent: str, scope: Scope, user: str | None
) -> None:
    admitted = viewer.admits(agent, scope, user)
    if agent != viewer.agent_id or scope is Scope.SESSION:
        assert not admitted
    elif scope is Scope.USER:
        assert admitted == (
            Scope.USER in viewer.scopes and user is not None and user == viewer.user_id
        )
    else:
        assert admitted == (Scope.AGENT in viewer.scopes)


def test_a_user_fact_is_invisible_in_a_group_session() -> None:
    viewer = profile(config(), "u1", "u2").scopes(True).visibility
    assert not viewer.admits("a1", Scope.USER, "u1")
    assert not viewer.admits("a1", Scope.USER, "u2")
    assert viewer.admits("a1", Scope.AGENT, None)


def test_another_agents_fact_is_never_visible() -> None:
    viewer = profile(config(), "u1").scopes(True).visibility
    assert viewer.admits("a1", Scope.USER, "u1")
    assert not viewer.admits("a2", Scope.USER, "u1")
    assert not viewer.admits("a2", Scope.AGENT, None)
    assert not viewer.admits("a1", Scope.USER, "u2")
    assert not viewer.admits("a1", Scope.USER, None)


def test_a_visibility_refuses_session_scope_and_an_unknown_user() -> None:
    with pytest.raises(InvalidInputError, match="session"):
        FactVisibility(AgentId("a1"), None, frozenset({Scope.SESSION}))
    with pytest.raises(InvalidInputError, match="known user"):
        FactVisibility(AgentId("a1"), None, frozenset({Scope.USER}))


def test_facts_live_only_in_user_and_agent_scope() -> None:
    assert frozenset({Scope.USER, Scope.AGENT}) == FACT_SCOPES
    assert HIERARCHY == (Scope.AGENT, Scope.USER, Scope.SESSION)


def test_a_scope_key_names_exactly_its_owner() -> None:
    assert ScopeKey.agent("a1").as_text() == "agent:a1:"
    assert ScopeKey.user("a1", "u1").as_text() == "user:a1:u1"
    assert ScopeKey.session("a1", "s1").as_text() == "session:a1:s1"
    with pytest.raises(InvalidInputError, match="needs a user_id"):
        ScopeKey(Scope.USER, AgentId("a1"))
    with pytest.raises(InvalidInputError, match="takes no user_id"):
        ScopeKey(Scope.AGENT, AgentId("a1"), user_id=UserId("u1"))
    with pytest.raises(InvalidInputError, match="needs a session_id"):
        ScopeKey(Scope.SESSION, AgentId("a1"))
    with pytest.raises(InvalidInputError, match="takes no session_id"):
        ScopeKey(Scope.USER, AgentId("a1"), UserId("u1"), SessionId("s1"))
    with pytest.raises(InvalidInputError):
        ScopeKey.user("a1", '{"$ne": 1}')


COLON_IDS = st.sampled_from(["a", "b", "a:b", "b:c", "c", "a:b:c", "x=y", "x"])


@st.composite
def scope_keys(draw: st.DrawFn) -> ScopeKey:
    scope = draw(st.sampled_from(list(Scope)))
    agent = draw(COLON_IDS)
    if scope is Scope.AGENT:
        return ScopeKey.agent(agent)
    if scope is Scope.USER:
        return ScopeKey.user(agent, draw(COLON_IDS))
    return ScopeKey.session(agent, draw(COLON_IDS))


@PROPERTY
@given(scope_keys(), scope_keys())
def test_two_scope_keys_share_a_text_only_when_they_are_equal(
    first: ScopeKey, second: ScopeKey
) -> None:
    assert (first.as_text() == second.as_text()) == (first == second)


def test_ids_with_colons_cannot_forge_another_owners_key_text() -> None:
    assert ScopeKey.user("a:b", "c").as_text() != ScopeKey.user("a", "b:c").as_text()


def test_identities_refuse_invalid_ids() -> None:
    with pytest.raises(InvalidInputError):
        SessionProfile(AgentId("a1"), SessionId("s 1"))
    with pytest.raises(InvalidInputError):
        profile(config(), "u$1")
    with pytest.raises(InvalidInputError, match="user_ids"):
        SessionProfile.of(config(), "s1", "u1")  # a lone id, not a list
    with pytest.raises(InvalidInputError):
        AgentMemoryConfig(AgentId(""))


def test_active_scopes_refuse_a_key_of_an_inactive_scope() -> None:
    active = ActiveScopes(AgentId("a1"), SessionId("s1"), None, frozenset({Scope.SESSION}))
    assert active.key(Scope.SESSION) == ScopeKey.session("a1", "s1")
    with pytest.raises(InvalidInputError):
        active.key(Scope.AGENT)
