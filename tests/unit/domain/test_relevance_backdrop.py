"""Relevance within one user's memory: a hit must stand out from the facts the search sees,
and a question about someone the store never mentions has nothing relevant in it."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from eden_memory.domain.relevance import (
    MIN_BACKDROP,
    Backdrop,
    SemanticScale,
    hit_relevance,
    names_asked,
    names_held,
    semantic_relevance,
)

COSINES = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
E5 = SemanticScale(0.753, 0.815, 0.883)
# A one-user store asked a question it answers: one fact stands out, the rest are alike.
STORE = [0.80, 0.79, 0.80, 0.81, 0.79, 0.80, 0.78, 0.81, 0.80, 0.79]


@given(st.lists(COSINES, min_size=MIN_BACKDROP, max_size=40), COSINES, COSINES)
def test_standing_out_is_bounded_and_never_falls_as_the_cosine_rises(
    cosines: list[float], a: float, b: float
) -> None:
    backdrop = Backdrop.of(cosines)
    assume(backdrop is not None)
    assert backdrop is not None
    low, high = sorted((a, b))
    assert 0.0 <= backdrop.standing(low) <= backdrop.standing(high) <= 1.0


@given(st.lists(COSINES, max_size=MIN_BACKDROP - 1))
def test_too_few_candidates_have_no_backdrop(cosines: list[float]) -> None:
    assert Backdrop.of(cosines) is None


def test_candidates_all_alike_have_no_backdrop() -> None:
    assert Backdrop.of([0.8] * 20) is None


@given(st.lists(COSINES, min_size=MIN_BACKDROP, max_size=40), COSINES)
def test_semantic_relevance_needs_both_closeness_and_standing_out(
    cosines: list[float], cosine: float
) -> None:
    backdrop = Backdrop.of(cosines)
    assume(backdrop is not None)
    assert backdrop is not None
    relevance = semantic_relevance(E5, cosine, backdrop)
    assert 0.0 <= relevance <= 1.0
    assert relevance <= backdrop.standing(cosine)
    assert relevance <= 2 * E5.relevance(cosine)


@given(COSINES)
def test_without_a_backdrop_closeness_alone_judges(cosine: float) -> None:
    assert semantic_relevance(E5, cosine, None) == E5.relevance(cosine)


def test_an_answer_that_stands_out_is_relevant_under_the_unrelated_line() -> None:
    # "Where is she employed?": the job fact (0.812) stands out from her other facts, though
    # under e5's unrelated line (0.815): on closeness alone it was not relevant.
    backdrop = Backdrop.of([*STORE, 0.812])
    assert E5.relevance(0.812) < 0.5
    assert semantic_relevance(E5, 0.812, backdrop) >= 0.5


def test_a_fact_like_all_the_others_is_not_relevant_however_close() -> None:
    # "Does she have a dog?": every fact names her, so all score alike and high.
    backdrop = Backdrop.of([0.86, 0.85, 0.86, 0.85, 0.86, 0.85, 0.86, 0.85, 0.86])
    assert E5.relevance(0.86) > 0.5
    assert semantic_relevance(E5, 0.86, backdrop) < 0.5


def test_standing_out_of_unrelated_text_is_not_enough() -> None:
    # A store of far facts: one is less far, yet still typical of unrelated text.
    backdrop = Backdrop.of([0.60, 0.61, 0.60, 0.62, 0.60, 0.61, 0.60, 0.75])
    assert backdrop is not None
    assert backdrop.standing(0.75) == 1.0
    assert semantic_relevance(E5, 0.75, backdrop) == 0.0


def test_names_are_words_written_as_names_after_the_first() -> None:
    assert names_asked(["Where does Maya's mom live?"]) == ["Maya"]
    assert names_asked(["Which city am I living in now?", "How old am I?"]) == []
    assert names_asked(["Is 2FA mandatory? Does Lena Fischer pay?"]) == ["Lena", "Fischer"]
    assert names_asked(["Kevin works where?"]) == []  # first in its sentence: not read
    assert names_asked(["Where does Ana live?", "What does ana do, Ana?"]) == ["Ana"]


@given(st.integers(min_value=0, max_value=5), st.integers(min_value=0, max_value=5))
def test_names_held_is_a_share(asked: int, held: int) -> None:
    if held > asked:
        with pytest.raises(ValueError, match="names held"):
            names_held(asked, held)
        return
    share = names_held(asked, held)
    assert 0.0 <= share <= 1.0
    assert (share == 1.0) == (held == asked)


@given(COSINES, st.floats(min_value=0.0, max_value=1.0))
def test_a_question_about_someone_never_mentioned_has_nothing_relevant(
    cosine: float, coverage: float
) -> None:
    assert hit_relevance(E5, cosine, coverage, None, names_held(1, 0)) == 0.0
    whole = hit_relevance(E5, cosine, coverage)
    assert whole is not None
    assert hit_relevance(E5, cosine, coverage, None, names_held(2, 1)) == pytest.approx(whole / 2)
