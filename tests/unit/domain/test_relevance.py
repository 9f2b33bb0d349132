"""Relevance on one scale for every embedder, and abstention when nothing reaches the line."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from eden_memory.domain.calibration import PairScores, calibrate, quantile
from eden_memory.domain.relevance import (
    ABSTAIN_BELOW,
    SemanticScale,
    answerable,
    hit_relevance,
    keyword_relevance,
)

COSINES = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
E5 = SemanticScale(0.753, 0.815, 0.883)


@st.composite
def scales(draw: st.DrawFn) -> SemanticScale:
    a, b, c = sorted(draw(st.lists(COSINES, min_size=3, max_size=3, unique=True)))
    return SemanticScale(a, b, c)


@given(scales(), COSINES, COSINES)
def test_semantic_relevance_is_bounded_and_never_falls_as_the_cosine_rises(
    scale: SemanticScale, a: float, b: float
) -> None:
    low, high = sorted((a, b))
    assert 0.0 <= scale.relevance(low) <= scale.relevance(high) <= 1.0


@given(scales(), st.floats())
def test_any_score_at_all_gives_a_relevance_from_0_to_1_and_nan_gives_0(
    scale: SemanticScale, cosine: float
) -> None:
    assert 0.0 <= scale.relevance(cosine) <= 1.0
    assert 0.0 <= keyword_relevance(cosine) <= 1.0
    assert scale.relevance(float("nan")) == 0.0 == keyword_relevance(float("nan"))


@given(scales())
def test_the_scale_s_anchors_are_0_one_half_and_1(scale: SemanticScale) -> None:
    assert scale.relevance(scale.typical) == 0.0
    assert scale.relevance(scale.line) == pytest.approx(0.5)
    assert scale.relevance(scale.most) == 1.0


def test_e5_examples() -> None:
    assert E5.relevance(0.70) == 0.0  # below the typical unrelated pair
    assert E5.relevance(0.784) == pytest.approx(0.25)
    assert E5.relevance(0.849) == pytest.approx(0.75)
    assert E5.relevance(0.95) == 1.0


def test_a_scale_out_of_order_is_refused() -> None:
    with pytest.raises(ValueError, match="typical < line < most"):
        SemanticScale(0.8, 0.8, 0.9)


@given(st.floats(min_value=0.0, max_value=2.0), st.floats(min_value=0.0, max_value=2.0))
def test_keyword_relevance_is_bounded_and_follows_the_coverage(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert 0.0 <= keyword_relevance(low) <= keyword_relevance(high) <= 1.0


def test_keyword_relevance_examples() -> None:
    assert keyword_relevance(0.3) == pytest.approx(0.3)
    assert keyword_relevance(0.5) == pytest.approx(ABSTAIN_BELOW)  # half the question's weight
    assert keyword_relevance(1.2) == 1.0


@given(scales(), COSINES, st.floats(min_value=0.0, max_value=1.0))
def test_a_hit_s_relevance_is_the_stronger_evidence(
    scale: SemanticScale, cosine: float, coverage: float
) -> None:
    both = hit_relevance(scale, cosine, coverage)
    assert both == max(scale.relevance(cosine), keyword_relevance(coverage))
    assert hit_relevance(scale, cosine, None) == scale.relevance(cosine)
    assert hit_relevance(scale, None, coverage) == keyword_relevance(coverage)
    assert hit_relevance(scale, None, None) is None


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), max_size=10))
def test_a_search_is_answerable_when_a_hit_reaches_the_line(relevances: list[float]) -> None:
    assert answerable(list(relevances)) == any(r >= ABSTAIN_BELOW for r in relevances)


def test_a_hit_of_unknown_relevance_keeps_the_search() -> None:
    assert answerable([0.1, None])
    assert not answerable([0.1, 0.49])
    assert not answerable([])


@given(st.lists(COSINES, min_size=3, max_size=60))
def test_the_calibrated_scale_reads_the_unrelated_pairs(unrelated: list[float]) -> None:
    assume(len(set(unrelated)) > 1)
    scores = PairScores([0.5], [0.5], unrelated)
    scale = calibrate("m", scores, "test").scale
    assert scale.typical < scale.line < scale.most  # a usable scale, whatever the pairs
    assert scale.most >= round(max(unrelated), 3) - 1e-9
    # 95% of the unrelated pairs are under the line (give or take rounding to 3 places):
    # nothing that looks like them is called relevant.
    under = sum(u <= scale.line + 1e-3 for u in unrelated) / len(unrelated)
    assert under >= 0.95 or scale.line >= quantile(unrelated, 0.95) - 1e-3
