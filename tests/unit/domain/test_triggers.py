from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ids import MessageId
from eden_memory.domain.models import Message, Role
from eden_memory.domain.settings import FormationSettings
from eden_memory.domain.triggers import (
    cold_cutoff,
    formation_due,
    is_cold,
    role_weight,
    weighted_tokens,
)
from tests.unit.domain.builders import PROPERTY, T0, times

DEFAULT = FormationSettings()


@st.composite
def formation_settings(draw: st.DrawFn) -> FormationSettings:
    return FormationSettings(
        message_interval=draw(st.integers(1, 100)),
        token_interval=draw(st.floats(0.5, 5000)),
        min_messages=draw(st.integers(1, 20)),
        cold_after_minutes=draw(st.floats(0.5, 120)),
    )


def message(role: Role, chars: int) -> Message:
    return Message(id=MessageId("m1"), role=role, text="x" * chars, sent_at=T0)


def test_a_token_is_four_and_a_half_characters_weighted_by_role() -> None:
    assert weighted_tokens([message(Role.USER, 45)], DEFAULT) == pytest.approx(10.0)
    assert weighted_tokens([message(Role.TOOL, 45)], DEFAULT) == pytest.approx(5.0)
    assert weighted_tokens([message(Role.AGENT, 45)], DEFAULT) == pytest.approx(2.0)
    assert weighted_tokens([message(Role.OTHER, 45)], DEFAULT) == pytest.approx(5.0)
    assert weighted_tokens([], DEFAULT) == 0


def test_every_role_has_its_weight() -> None:
    weights = DEFAULT.role_weights
    assert [role_weight(r, weights) for r in Role] == [1.0, 0.2, 0.5, 0.5]


@PROPERTY
@given(st.lists(st.tuples(st.sampled_from(list(Role)), st.integers(0, 5000)), max_size=10))
def test_weighted_tokens_add_up_over_messages(sizes: list[tuple[Role, int]]) -> None:
    messages = [message(role, chars) for role, chars in sizes]
    total = weighted_tokens(messages, DEFAULT)
    assert total == pytest.approx(sum(weighted_tokens([m], DEFAULT) for m in messages))
    assert total <= sum(chars for _, chars in sizes) / 4.5 + 1e-9


@pytest.mark.parametrize(
    ("messages", "tokens", "due"),
    [
        (3, 1_000_000.0, False),
        (4, 1499.9, False),
        (4, 1500.0, True),
        (44, 0.0, False),
        (45, 0.0, True),
        (200, 0.0, True),
        (0, 0.0, False),
    ],
)
def test_formation_is_due_with_enough_messages_and_many_messages_or_tokens(
    messages: int, tokens: float, due: bool
) -> None:
    assert formation_due(messages, tokens, DEFAULT) is due


@PROPERTY
@given(
    formation_settings(),
    st.integers(0, 200),
    st.floats(0, 10_000),
    st.integers(0, 50),
    st.floats(0, 5_000),
)
def test_the_due_rule_is_monotone_in_messages_and_tokens(
    settings: FormationSettings, messages: int, tokens: float, more: int, extra: float
) -> None:
    if formation_due(messages, tokens, settings):
        assert formation_due(messages + more, tokens, settings)
        assert formation_due(messages, tokens + extra, settings)
        assert formation_due(messages + more, tokens + extra, settings)


@PROPERTY
@given(formation_settings(), st.integers(0, 200), st.floats(0, 1e9))
def test_min_messages_is_a_hard_floor(
    settings: FormationSettings, messages: int, tokens: float
) -> None:
    if messages < settings.min_messages:
        assert not formation_due(messages, tokens, settings)
    elif messages >= settings.message_interval:
        assert formation_due(messages, tokens, settings)


def test_a_session_quiet_for_ten_minutes_with_four_messages_is_cold() -> None:
    quiet = T0 - timedelta(minutes=10)
    assert is_cold(quiet, 4, T0, DEFAULT)
    assert not is_cold(quiet + timedelta(seconds=1), 4, T0, DEFAULT)
    assert not is_cold(quiet, 3, T0, DEFAULT)
    assert not is_cold(None, 100, T0, DEFAULT)


@PROPERTY
@given(formation_settings(), times(), times(), st.integers(0, 30))
def test_cold_means_last_activity_at_or_before_the_cutoff(
    settings: FormationSettings, last: datetime, now: datetime, pending: int
) -> None:
    cold = is_cold(last, pending, now, settings)
    assert cold == (pending >= settings.min_messages and last <= cold_cutoff(now, settings))
