"""An optional decay of scores by age: a fact one half-life old counts half."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.decay import decay_factor, decayed
from eden_memory.domain.ranking import FusedHit
from tests.unit.domain.builders import PROPERTY, T0

half_lives = st.floats(0.01, 10_000, allow_nan=False)
days = st.floats(0, 100_000, allow_nan=False)


def test_a_fact_one_half_life_old_counts_half_and_a_fact_said_now_all() -> None:
    assert decay_factor(T0 - timedelta(days=30), T0, 30) == pytest.approx(0.5)
    assert decay_factor(T0 - timedelta(days=60), T0, 30) == pytest.approx(0.25)
    assert decay_factor(T0, T0, 30) == 1.0
    assert decay_factor(T0 + timedelta(days=1), T0, 30) == 1.0  # said "later": no gain
    with pytest.raises(ValueError, match="positive"):
        decay_factor(T0, T0, 0)


@PROPERTY
@given(days, days, half_lives)
def test_the_factor_is_in_0_1_and_never_grows_with_age(a: float, b: float, half: float) -> None:
    young, old = sorted((a, b))
    f_young = decay_factor(T0 - timedelta(days=young), T0, half)
    f_old = decay_factor(T0 - timedelta(days=old), T0, half)
    assert 0.0 <= f_old <= f_young <= 1.0


@PROPERTY
@given(
    st.lists(st.tuples(st.floats(-1, 5, allow_nan=False), days), max_size=8),
    half_lives,
)
def test_decayed_scores_never_rise_and_come_back_best_first(
    scored: list[tuple[float, float]], half: float
) -> None:
    hits = [FusedHit(f"f{i}", score) for i, (score, _) in enumerate(scored)]
    said = {f"f{i}": T0 - timedelta(days=age) for i, (_, age) in enumerate(scored)}
    out = decayed(hits, said, T0, half)
    before = {h.id: h.score for h in hits}
    assert sorted(h.id for h in out) == sorted(before)
    assert all(h.score <= before[h.id] for h in out)
    assert [h.score for h in out] == sorted((h.score for h in out), reverse=True)


def test_of_two_equal_scores_the_newer_ranks_first_and_unknown_ages_keep_theirs() -> None:
    hits = [FusedHit("old", 0.8), FusedHit("new", 0.8), FusedHit("unknown", 0.5)]
    said = {"old": T0 - timedelta(days=10), "new": T0 - timedelta(days=1)}
    out = decayed(hits, said, T0, 30)
    assert [h.id for h in out] == ["new", "old", "unknown"]
    assert out[-1].score == 0.5
