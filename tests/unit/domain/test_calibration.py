"""The floors read off a model's similarities on the calibration pairs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.calibration import PairScores, calibrate, quantile
from tests.unit.domain.builders import PROPERTY

COSINES = st.lists(st.floats(-1, 1), min_size=1, max_size=40)


def test_quantiles_interpolate_like_numpy() -> None:
    assert quantile([0.0, 1.0], 0.5) == 0.5
    assert quantile([3.0, 1.0, 2.0], 0.0) == 1.0
    assert quantile([3.0, 1.0, 2.0], 1.0) == 3.0
    assert quantile([0.0, 10.0, 20.0, 30.0], 0.1) == pytest.approx(3.0)
    with pytest.raises(ValueError, match="quantile"):
        quantile([], 0.5)


def test_a_model_that_separates_answers_from_noise_gets_a_floor_between_them() -> None:
    noise = [i / 100 for i in range(-20, 21)]  # -0.2 .. 0.2
    answers = [0.5 + i / 100 for i in range(30)]  # 0.5 .. 0.79
    same = [0.7 + i / 100 for i in range(25)]  # 0.7 .. 0.94
    floors = calibrate("m", PairScores(answers, same, noise), "test")
    assert 0.17 < floors.search_floor < 0.5  # above 95% of the noise, under the answers
    assert 0.7 < floors.dedup_floor < 0.75  # 90% of same-attribute pairs pass


@PROPERTY
@given(COSINES, COSINES, COSINES)
def test_floors_keep_most_answers_and_refuse_the_loudest_noise(
    answers: list[float], same: list[float], unrelated: list[float]
) -> None:
    floors = calibrate("m", PairScores(answers, same, unrelated), "test")
    assert -1.0 <= floors.search_floor <= 1.0
    assert -1.0 <= floors.dedup_floor <= 1.0
    assert floors.search_floor <= quantile(answers, 0.10) + 1e-3
    assert floors.dedup_floor >= quantile(unrelated, 0.99) - 1e-3


@PROPERTY
@given(COSINES, COSINES, COSINES, st.floats(0, 0.5))
def test_a_model_that_scores_everything_higher_gets_higher_floors(
    answers: list[float], same: list[float], unrelated: list[float], shift: float
) -> None:
    def up(values: list[float]) -> list[float]:
        return [min(1.0, v + shift) for v in values]

    low = calibrate("m", PairScores(answers, same, unrelated), "test")
    high = calibrate("m", PairScores(up(answers), up(same), up(unrelated)), "test")
    assert high.search_floor >= low.search_floor - 1e-3
    assert high.dedup_floor >= low.dedup_floor - 1e-3
