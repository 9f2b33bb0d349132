"""Reranking policy: the judged prefix reordered by score, the rest as it was, bad ones refused."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.reranking import RerankAnswerError, rerank_order, scores_from_choice

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


def test_the_judged_candidates_come_first_by_score() -> None:
    assert rerank_order(5, [0.1, 0.9, 0.5]) == [1, 2, 0, 3, 4]


def test_ties_keep_the_fused_order() -> None:
    assert rerank_order(4, [1.0, 2.0, 1.0, 2.0]) == [1, 3, 0, 2]


def test_no_scores_leave_the_order_as_it_was() -> None:
    assert rerank_order(3, []) == [0, 1, 2]


def test_more_scores_than_candidates_are_refused() -> None:
    with pytest.raises(RerankAnswerError, match="3 scores for 2 candidates"):
        rerank_order(2, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_score_that_is_not_a_finite_number_is_refused(bad: float) -> None:
    with pytest.raises(RerankAnswerError, match="finite"):
        rerank_order(3, [1.0, bad])


@given(st.lists(finite, max_size=30), st.integers(min_value=0, max_value=20))
def test_the_order_is_a_permutation_whose_tail_is_untouched(
    scores: list[float], extra: int
) -> None:
    n = len(scores) + extra
    order = rerank_order(n, scores)
    assert sorted(order) == list(range(n))
    assert order[len(scores) :] == list(range(len(scores), n))
    judged = [scores[i] for i in order[: len(scores)]]
    assert judged == sorted(judged, reverse=True)


@given(st.lists(finite, min_size=1, max_size=30))
def test_equal_scores_never_swap(scores: list[float]) -> None:
    order = rerank_order(len(scores), scores)
    for a, b in itertools.pairwise(order):
        if scores[a] == scores[b]:
            assert a < b


def test_a_choice_scores_the_chosen_best_first_and_the_rest_zero() -> None:
    assert scores_from_choice([3, 1], 4) == [1.0, 0.0, 2.0, 0.0]
    assert rerank_order(4, scores_from_choice([3, 1], 4)) == [2, 0, 1, 3]


def test_an_empty_choice_keeps_the_fused_order() -> None:
    assert rerank_order(3, scores_from_choice([], 3)) == [0, 1, 2]


@pytest.mark.parametrize("chosen", [[0], [5], [-1], [True]])
def test_a_number_that_was_not_shown_is_refused(chosen: list[int]) -> None:
    with pytest.raises(RerankAnswerError, match="was not shown"):
        scores_from_choice(chosen, 4)


def test_a_number_named_twice_is_refused() -> None:
    with pytest.raises(RerankAnswerError, match="named twice"):
        scores_from_choice([2, 2], 4)


@given(
    st.integers(min_value=1, max_value=40).flatmap(
        lambda n: st.tuples(st.just(n), st.permutations(range(1, n + 1)), st.integers(0, n))
    )
)
def test_a_valid_choice_puts_exactly_the_chosen_first_in_their_order(
    case: tuple[int, list[int], int],
) -> None:
    shown, numbers, cut = case
    chosen = numbers[:cut]
    order = rerank_order(shown, scores_from_choice(chosen, shown))
    assert [i + 1 for i in order[:cut]] == chosen
    rest = [i + 1 for i in order[cut:]]
    assert rest == sorted(rest)
