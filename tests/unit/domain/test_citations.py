"""A fact's citation: the few messages that state it, never a whole session."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.citations import MAX_SOURCES, content_words, trimmed_citation
from tests.unit.domain.builders import PROPERTY

SESSION = [
    "Hey Gina, long time no see!",
    "I lost my job at the bank last month.",
    "So I am starting a dance studio downtown.",
    "Wow, good luck with it!",
    "The studio opens in June; I found a space near the river.",
    "Thanks, talk soon.",
]


def test_a_citation_of_three_or_fewer_messages_is_kept_as_given() -> None:
    assert trimmed_citation("Jon lost his job", SESSION[:3]) == (0, 1, 2)
    assert trimmed_citation("Jon lost his job", SESSION[1:2]) == (0,)
    assert trimmed_citation("anything", []) == ()


def test_a_whole_session_cited_keeps_the_messages_that_state_the_fact() -> None:
    kept = trimmed_citation("Jon is starting a dance studio that opens in June.", SESSION)
    # 2 and 4 share three words each; the third place goes to the earliest of the rest.
    assert kept == (0, 2, 4)
    assert len(kept) == MAX_SOURCES


def test_on_a_tie_the_earlier_message_is_kept() -> None:
    assert trimmed_citation("Jon plays chess", ["a", "b", "c", "d"], limit=2) == (0, 1)


def test_short_words_do_not_count_as_shared() -> None:
    assert content_words("The cat and her dog") == frozenset()
    assert trimmed_citation("the and her", ["x", "the and her", "y"], limit=1) == (0,)


def test_a_fact_keeps_at_least_one_source() -> None:
    with pytest.raises(ValueError, match="at least one"):
        trimmed_citation("x", SESSION, limit=0)


texts = st.text(st.sampled_from("abcde fghij"), max_size=40)


@PROPERTY
@given(texts, st.lists(texts, max_size=30), st.integers(1, 6))
def test_the_kept_sources_are_at_most_the_limit_in_order_and_among_those_cited(
    fact: str, cited: list[str], limit: int
) -> None:
    kept = trimmed_citation(fact, cited, limit)
    assert len(kept) == min(limit, len(cited))
    assert list(kept) == sorted(set(kept))
    assert all(0 <= i < len(cited) for i in kept)


@PROPERTY
@given(texts, st.lists(texts, min_size=1, max_size=30), st.integers(1, 6))
def test_no_message_left_out_shares_more_with_the_fact_than_one_kept(
    fact: str, cited: list[str], limit: int
) -> None:
    kept = set(trimmed_citation(fact, cited, limit))
    wanted = content_words(fact)
    shared = [len(wanted & content_words(t)) for t in cited]
    left_out = [shared[i] for i in range(len(cited)) if i not in kept]
    assert not left_out or max(left_out) <= min(shared[i] for i in kept)
