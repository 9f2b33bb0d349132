"""Judging policy: the hits a judge says answer, by position; an answer about another list
is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.judging import MAX_JUDGED, JudgeAnswerError, answering


def test_the_numbers_chosen_become_positions_from_zero() -> None:
    assert answering([2, 3], 3) == frozenset({1, 2})


def test_an_empty_answer_says_none_answers() -> None:
    assert answering([], 3) == frozenset()


@pytest.mark.parametrize("number", [0, 4, -1, 99])
def test_a_number_that_was_not_shown_is_refused(number: int) -> None:
    with pytest.raises(JudgeAnswerError, match="was not shown"):
        answering([1, number], 3)


def test_a_number_named_twice_is_refused() -> None:
    with pytest.raises(JudgeAnswerError, match="named twice"):
        answering([1, 1], 3)


def test_a_boolean_is_not_a_number_here() -> None:
    with pytest.raises(JudgeAnswerError, match="was not shown"):
        answering([True], 3)


@pytest.mark.parametrize("shown", [0, MAX_JUDGED + 1])
def test_a_judge_is_shown_between_one_and_the_most_hits(shown: int) -> None:
    with pytest.raises(JudgeAnswerError, match="is shown 1 to"):
        answering([], shown)


shown_and_chosen = st.integers(min_value=1, max_value=MAX_JUDGED).flatmap(
    lambda n: st.tuples(
        st.just(n), st.lists(st.integers(min_value=1, max_value=n), unique=True, max_size=n)
    )
)


@given(shown_and_chosen)
def test_an_answer_within_the_list_is_every_number_chosen_less_one(
    case: tuple[int, list[int]],
) -> None:
    shown, chosen = case
    found = answering(chosen, shown)
    assert found == {n - 1 for n in chosen}
    assert all(0 <= i < shown for i in found)


@given(
    st.integers(min_value=1, max_value=MAX_JUDGED),
    st.lists(st.integers(min_value=-50, max_value=50), max_size=12),
)
def test_any_answer_is_either_within_the_list_or_refused(shown: int, chosen: list[int]) -> None:
    fits = len(set(chosen)) == len(chosen) and all(1 <= n <= shown for n in chosen)
    try:
        found = answering(chosen, shown)
    except JudgeAnswerError:
        assert not fits
    else:
        assert fits
        assert len(found) == len(chosen)
