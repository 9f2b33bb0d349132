"""The fallback keyword ranking: BM25 over the visible candidates, fuzzy at one edit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.mongo.keyword import (
    FALLBACK_TEXT_THRESHOLD,
    bm25,
    match_weight,
    one_edit_apart,
    query_words,
    terms,
    tokens,
)


def test_terms_are_split_like_the_standard_analyser_without_possessives() -> None:
    assert tokens("Alice's E-mail: ALICE@example.com! Don't") == [
        "alice",
        "e",
        "mail",
        "alice",
        "example",
        "com",
        "don't",
    ]


def test_terms_are_porter_stems_as_lucene_english_indexes_them() -> None:
    assert terms("Caroline attended the support groups") == [
        "carolin",
        "attend",
        "the",
        "support",
        "group",
    ]


def test_a_query_looks_for_the_stems_of_its_words_that_count() -> None:
    documents = [("went", "Caroline attended an LGBTQ support group"), ("other", "Mel paints")]
    assert [d for d, _ in bm25("When did Caroline go to the LGBTQ support groups?", documents)] == [
        "went"
    ]
    assert query_words("When did Caroline's groups meet?") == ["caroline", "groups", "meet"]
    # Stop words only: every word is looked for.
    assert query_words("Who is it?") == ["who", "is", "it"]


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [
        ("kayak", "kayaks", True),  # insertion
        ("kayak", "kaya", True),  # deletion
        ("kayak", "kayek", True),  # substitution
        ("kayak", "kyaak", True),  # swap of neighbours
        ("kayak", "kayak", False),  # equal is not an edit
        ("kayak", "kyak", True),
        ("kayak", "kayyakk", False),
        ("kayak", "kabab", False),
    ],
)
def test_one_edit_apart(a: str, b: str, near: bool) -> None:
    assert one_edit_apart(a, b) is near
    assert one_edit_apart(b, a) is near


def test_short_terms_match_only_exactly() -> None:
    assert match_weight("tea", "tea") == 1.0
    assert match_weight("tea", "sea") == 0.0
    assert match_weight("rocket", "rockte") == pytest.approx(1 - 1 / 6)


def test_more_matching_terms_rank_higher_and_non_matches_are_left_out() -> None:
    documents = [
        ("best", "The rocket launch deadline and budget were approved"),
        ("some", "The rocket design review was approved by everyone"),
        ("none", "Bob owns a red bicycle and a green kayak"),
    ]
    ranked = bm25("rocket launch deadline budget", documents)
    assert [doc for doc, _ in ranked] == ["best", "some"]
    assert ranked[0][1] > ranked[1][1] > 0


def test_a_typo_still_finds_the_fact() -> None:
    ranked = bm25("rokcet", [("a", "The rocket launch was approved"), ("b", "Green tea")])
    assert [doc for doc, _ in ranked] == ["a"]


def test_the_threshold_keeps_a_distinctive_word_even_in_a_tiny_store() -> None:
    [(doc, score)] = bm25("kayak", [("only", "Bob owns a green kayak")])
    assert doc == "only"
    assert score >= FALLBACK_TEXT_THRESHOLD


def test_the_threshold_drops_a_word_that_every_fact_of_a_large_store_holds() -> None:
    documents = [(f"d{n}", f"the fact number {n}") for n in range(1000)]
    ranked = bm25("the", documents)
    assert len(ranked) == 1000
    assert all(score < FALLBACK_TEXT_THRESHOLD for _, score in ranked)


def test_the_threshold_sits_near_a_fifth_of_the_store() -> None:
    """One exact occurrence clears 1.5 up to about 22% of the facts holding the term."""

    def score_at(share: float) -> float:
        holders = int(1000 * share)
        documents = [(f"d{n}", "alpha beta" if n < holders else "gamma delta") for n in range(1000)]
        return dict(bm25("alpha", documents))["d0"]

    assert score_at(0.20) >= FALLBACK_TEXT_THRESHOLD > score_at(0.25)


def test_a_preselected_subset_scores_with_the_full_corpus_size() -> None:
    subset = [("a", "alpha beta"), ("b", "alpha gamma")]
    full = [*subset, *[(f"z{n}", "delta beta") for n in range(50)]]
    narrowed = dict(bm25("alpha", subset, total=len(full)))
    assert narrowed["a"] == pytest.approx(dict(bm25("alpha", full))["a"], rel=0.2)
    assert narrowed["a"] > dict(bm25("alpha", subset))["a"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abc ", max_size=20), max_size=8), st.text(max_size=10))
def test_scores_are_positive_and_sorted(contents: list[str], query: str) -> None:
    ranked = bm25(query, [(f"d{n}", c) for n, c in enumerate(contents)])
    scores = [score for _, score in ranked]
    assert all(score > 0 for score in scores)
    assert scores == sorted(scores, reverse=True)
