"""What one formation may keep grows with its conversation's length, within the clamp."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from eden_memory.domain.formation_caps import FormationCaps, length_multiplier, scaled
from eden_memory.domain.reflection_checks import NOTES_PER_SCOPE
from eden_memory.domain.settings import CapSettings
from tests.unit.domain.builders import PROPERTY

DEFAULT = CapSettings()
CHARS = st.integers(min_value=-10, max_value=2**63 - 1)


@st.composite
def cap_settings(draw: st.DrawFn) -> CapSettings:
    low = draw(st.floats(0.01, 5.0))
    return CapSettings(
        facts=draw(st.integers(1, 500)),
        reflections_per_scope=draw(st.integers(1, 20)),
        base_chars=draw(st.integers(1, 100_000)),
        log_base=draw(st.floats(1.01, 1000.0)),
        min_multiplier=low,
        max_multiplier=draw(st.floats(low, 10.0)),
    )


def test_the_base_length_keeps_the_base_counts() -> None:
    assert length_multiplier(3000, DEFAULT) == 1.0
    assert FormationCaps.of(3000, DEFAULT) == FormationCaps(facts=30, notes_per_scope=3)
    assert DEFAULT.reflections_per_scope == NOTES_PER_SCOPE == 3


def test_a_short_chat_keeps_half_and_a_long_one_twice_the_base() -> None:
    # Four short messages: the clamp's floor; ten times the base length: its ceiling.
    assert FormationCaps.of(400, DEFAULT) == FormationCaps(facts=15, notes_per_scope=2)
    assert FormationCaps.of(30_000, DEFAULT) == FormationCaps(facts=60, notes_per_scope=6)
    assert FormationCaps.of(10**12, DEFAULT) == FormationCaps(facts=60, notes_per_scope=6)


def test_between_the_bounds_the_multiplier_is_the_seeds_logarithm() -> None:
    assert length_multiplier(10_000, DEFAULT) == pytest.approx(1.5229, abs=1e-4)
    assert FormationCaps.of(10_000, DEFAULT) == FormationCaps(facts=46, notes_per_scope=5)


def test_a_conversation_without_text_counts_as_the_shortest() -> None:
    assert length_multiplier(0, DEFAULT) == DEFAULT.min_multiplier
    assert FormationCaps.for_texts(["", ""], DEFAULT) == FormationCaps.of(1, DEFAULT)


def test_the_caps_count_every_character_of_the_messages() -> None:
    assert FormationCaps.for_texts(["x" * 1000] * 10, DEFAULT) == FormationCaps.of(10_000, DEFAULT)


def test_a_cap_rounds_half_up_and_never_reaches_zero() -> None:
    assert scaled(3, 0.5) == 2
    assert scaled(30, 0.5) == 15
    assert scaled(1, 0.01) == 1


@pytest.mark.parametrize(
    "bad",
    [
        {"min_multiplier": 3.0, "max_multiplier": 2.0},
        {"log_base": 1.0},
        {"facts": 0},
        {"reflections_per_scope": 0},
        {"min_multiplier": 0.0},
        {"max_multiplier": float("inf")},
        {"log_base": float("nan")},
    ],
)
def test_settings_that_would_make_no_sense_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValidationError):
        CapSettings.model_validate(bad)


@PROPERTY
@given(cap_settings(), CHARS)
def test_the_multiplier_stays_within_the_clamp(settings: CapSettings, chars: int) -> None:
    assert settings.min_multiplier <= length_multiplier(chars, settings) <= settings.max_multiplier


@PROPERTY
@given(cap_settings(), CHARS, CHARS)
def test_a_longer_conversation_never_gets_a_lower_cap(
    settings: CapSettings, a: int, b: int
) -> None:
    shorter, longer = sorted((a, b))
    low, high = FormationCaps.of(shorter, settings), FormationCaps.of(longer, settings)
    assert length_multiplier(shorter, settings) <= length_multiplier(longer, settings)
    assert low.facts <= high.facts
    assert low.notes_per_scope <= high.notes_per_scope


@PROPERTY
@given(cap_settings(), CHARS)
def test_every_cap_is_at_least_one_and_the_base_scaled_by_the_clamp(
    settings: CapSettings, chars: int
) -> None:
    caps = FormationCaps.of(chars, settings)
    bases = (settings.facts, settings.reflections_per_scope)
    for cap, base in zip((caps.facts, caps.notes_per_scope), bases, strict=True):
        assert cap >= 1
        assert base * settings.min_multiplier - 0.5 <= cap
        assert cap <= max(1.0, base * settings.max_multiplier + 0.5)
