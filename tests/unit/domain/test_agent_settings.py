"""An agent's settings are a partial of ``MemorySettings``, held to the very same rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.settings import MemorySettings


def _leaves(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for name, info in model.model_fields.items():
        kind = info.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            out.extend(_leaves(kind, (*prefix, name)))
        else:
            out.append((*prefix, name))
    return out


LEAVES = _leaves(AgentSettings)
VALUES = st.one_of(
    st.integers(-3, 3000),
    st.floats(-2.0, 3000.0, allow_nan=False),
    st.sampled_from([0, 1, 0.5, 1.5, float("inf"), True, False, "7", "x", [1]]),
)
OVERRIDES = st.dictionaries(st.sampled_from(LEAVES), VALUES, max_size=5)
GLOBALS = st.sampled_from(
    [
        MemorySettings(),
        MemorySettings.model_validate({"search": {"max_top_k": 20, "default_top_k": 5}}),
        MemorySettings.model_validate(
            {"consolidation": {"thresholds": {"agent": 2, "user": 9, "session": 1}}}
        ),
    ]
)


def _nested(flat: dict[tuple[str, ...], Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, value in flat.items():
        here = out
        for name in path[:-1]:
            here = here.setdefault(name, {})
        here[path[-1]] = value
    return out


def _merged(settings: MemorySettings, flat: dict[tuple[str, ...], Any]) -> dict[str, Any]:
    data = settings.model_dump()
    for path, value in flat.items():
        here = data
        for name in path[:-1]:
            here = here[name]
        here[path[-1]] = value
    return data


def _globally(settings: MemorySettings, flat: dict[tuple[str, ...], Any]) -> MemorySettings | None:
    try:
        return MemorySettings.model_validate(_merged(settings, flat))
    except ValidationError:
        return None


@given(OVERRIDES, GLOBALS)
def test_an_override_is_accepted_exactly_when_the_global_would_be(
    flat: dict[tuple[str, ...], Any], settings: MemorySettings
) -> None:
    expected = _globally(settings, flat)
    try:
        effective: MemorySettings | None = AgentSettings.of(_nested(flat)).over(settings)
    except InvalidInputError:
        effective = None
    assert effective == expected


@given(OVERRIDES, GLOBALS)
def test_only_the_named_fields_change(
    flat: dict[tuple[str, ...], Any], settings: MemorySettings
) -> None:
    if _globally(settings, flat) is None:
        return
    effective = AgentSettings.of(_nested(flat)).over(settings).model_dump()
    expected = settings.model_dump()
    for path in flat:
        here, there = effective, expected
        for name in path[:-1]:
            here, there = here[name], there[name]
        there[path[-1]] = here[path[-1]]
    assert effective == expected


@given(OVERRIDES)
def test_what_is_stored_reads_back_the_same(flat: dict[tuple[str, ...], Any]) -> None:
    try:
        own = AgentSettings.of(_nested(flat))
    except InvalidInputError:
        return
    assert AgentSettings.of(own.changes) == own
    assert AgentSettings.model_validate_json(own.model_dump_json()) == own


@given(st.sampled_from(LEAVES), st.sampled_from([-1, 0, "x", [1]]))
def test_a_refused_value_names_its_field(path: tuple[str, ...], value: object) -> None:
    if _globally(MemorySettings(), {path: value}) is not None:
        return  # a value the global takes too (0 for a count that may be 0, False as 0)
    with pytest.raises(InvalidInputError) as refused:
        AgentSettings.of(_nested({path: value})).over(MemorySettings())
    assert ".".join(path) in str(refused.value)


def test_none_set_gives_the_globals_themselves() -> None:
    settings = MemorySettings()
    assert AgentSettings().over(settings) is settings
    assert AgentSettings().changes == {}


@pytest.mark.parametrize(
    "fields", [{"models": {"fast": "x"}}, {"context": {}}, {"formation": {"claim_ttl_seconds": 1}}]
)
def test_what_serves_every_agent_at_once_cannot_be_overridden(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError, match="Extra inputs are not permitted"):
        AgentSettings.of(fields)
