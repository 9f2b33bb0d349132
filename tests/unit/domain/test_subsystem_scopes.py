"""The subsystem switches are one rule of the scopes: every use case reads them from there."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import FACT_SCOPES, AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings


@given(
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.lists(st.sampled_from(["u1", "u2"]), max_size=2),
)
def test_each_switch_empties_only_its_own_subsystem(
    enabled: bool, facts: bool, reflections: bool, user: bool, agent: bool, users: list[str]
) -> None:
    config = AgentMemoryConfig("a1", user_memory_enabled=user, agent_memory_enabled=agent)
    profile = SessionProfile.of(config, "s1", users)
    settings = MemorySettings.model_validate(
        {"enabled": enabled, "facts": {"enabled": facts}, "reflections": {"enabled": reflections}}
    )
    both = profile.scopes(enabled)
    active = profile.active(settings)
    assert active.scopes == both.scopes
    assert active.keys() == both.keys()  # what the context cache's freshness reads
    assert active.fact_scopes == (both.scopes & FACT_SCOPES if facts else frozenset())
    assert active.search_offered == (facts and both.search_offered)
    assert active.visibility.is_empty == (not facts or both.visibility.is_empty)
    assert active.reflection_keys() == (both.keys() if reflections else ())
