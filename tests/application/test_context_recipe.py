"""The context's recipe, the key a shared context is stored under, put together by hand (and
its FIFO part kept per settings object) is the text ``json.dumps`` wrote before: contexts
saved by a worker of the earlier version are still found."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.application.context.assembly import ContextLabels, recipe
from eden_memory.domain.bounds import MAX_HOURS
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.domain.settings import FactSettings, MemorySettings


def _as_before(scopes: ActiveScopes, fifo: FactSettings, labels: ContextLabels) -> str:
    made = [scopes.facts_enabled, scopes.reflections_enabled, fifo.model_dump(mode="json")]
    return json.dumps([*made, labels.user_name, labels.instructions], sort_keys=True)


def _scopes(facts: bool = True, reflections: bool = True) -> ActiveScopes:
    return ActiveScopes(
        AgentId("bot"), SessionId("s1"), UserId("alice"), frozenset(Scope), facts, reflections
    )


def test_the_default_recipe_is_the_text_it_always_was() -> None:
    assert recipe(_scopes(), MemorySettings().facts, ContextLabels()) == (
        '[true, true, {"enabled": true, "fifo_enabled": true, "fifo_limit": 40, '
        '"fifo_max_age_hours": 168.0, "max_words": 30}, null, ""]'
    )


@given(
    facts=st.booleans(),
    reflections=st.booleans(),
    fifo_on=st.booleans(),
    limit=st.integers(0, 10**6),
    hours=st.floats(0.001, MAX_HOURS),
    name=st.none() | st.text(),
    instructions=st.text(),
)
def test_the_recipe_is_what_json_dumps_wrote(
    facts: bool,
    reflections: bool,
    fifo_on: bool,
    limit: int,
    hours: float,
    name: str | None,
    instructions: str,
) -> None:
    scopes = _scopes(facts, reflections)
    fifo = FactSettings(fifo_enabled=fifo_on, fifo_limit=limit, fifo_max_age_hours=hours)
    labels = ContextLabels(name, instructions)
    assert recipe(scopes, fifo, labels) == _as_before(scopes, fifo, labels)


def test_settings_kept_by_identity_are_read_again_when_another_object_comes() -> None:
    labels = ContextLabels('Zoë "Z"\n', "be brief\t\u2028")
    first, other = FactSettings(fifo_limit=7), FactSettings(fifo_limit=8)
    for fifo in (first, first, FactSettings(fifo_limit=7), other, first):
        assert recipe(_scopes(), fifo, labels) == _as_before(_scopes(), fifo, labels)
    assert recipe(_scopes(), first, labels) != recipe(_scopes(), other, labels)
