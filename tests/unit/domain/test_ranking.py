from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import (
    FusedHit,
    Fusion,
    FusionRule,
    FusionWeights,
    Hit,
    above,
    fuse,
    merge_queries,
    rrf_scores,
    single,
)
from tests.unit.domain.builders import PROPERTY

DOCS = st.sampled_from([f"d{i}" for i in range(8)])
RANKINGS = st.lists(st.lists(DOCS, max_size=8, unique=True), max_size=5)


def rrf_rule(
    k: int = 60, semantic: float = 0.65, text: float = 1.5, floor: float = 0.015
) -> FusionRule:
    """Equal-weight RRF, the seeds' fusion."""
    return FusionRule(Fusion.RRF, FusionWeights(1.0, 1.0), k, semantic, text, floor)


def fuse_default(semantic: list[Hit], keyword: list[Hit]) -> list[FusedHit]:
    return fuse(semantic, keyword, rrf_rule())


def test_ranks_start_at_one() -> None:
    assert rrf_scores([["a", "b"]], 60) == [("a", 1 / 61), ("b", 1 / 62)]


def test_a_document_in_both_lists_sums_its_contributions() -> None:
    scores = dict(rrf_scores([["a", "b"], ["b", "c"]], 60))
    assert scores == {"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 62}


def test_a_repeat_within_a_list_counts_once() -> None:
    assert rrf_scores([["a", "a", "b"]], 60) == [("a", 1 / 61), ("b", 1 / 62)]


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="k must be positive"):
        rrf_scores([["a"]], 0)


@PROPERTY
@given(RANKINGS, st.integers(1, 100), st.data())
def test_rrf_does_not_depend_on_the_order_of_its_lists(
    rankings: list[list[str]], k: int, data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(rankings))
    assert rrf_scores(shuffled, k) == rrf_scores(rankings, k)
    assert rrf_scores(list(reversed(rankings)), k) == rrf_scores(rankings, k)


def beats(a: str, b: str, ranking: list[str]) -> bool:
    """A beats B in a list: A is there at a better rank, or B is absent."""
    if b not in ranking:
        return True
    return a in ranking and ranking.index(a) < ranking.index(b)


@PROPERTY
@given(RANKINGS, st.integers(1, 100))
def test_rrf_never_ranks_a_document_below_one_it_beats_everywhere(
    rankings: list[list[str]], k: int
) -> None:
    order = [doc for doc, _ in rrf_scores(rankings, k)]
    for a in order:
        for b in order:
            if a != b and all(beats(a, b, ranking) for ranking in rankings):
                assert order.index(a) < order.index(b)


@PROPERTY
@given(RANKINGS, st.integers(1, 100))
def test_rrf_scores_every_listed_document_once_best_first(
    rankings: list[list[str]], k: int
) -> None:
    fused = rrf_scores(rankings, k)
    assert {doc for doc, _ in fused} == {doc for ranking in rankings for doc in ranking}
    scores = [score for _, score in fused]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= len(rankings) / (k + 1) + 1e-12 for s in scores)


def hit(doc: str, score: float) -> Hit:
    return Hit(FactId(doc), score)


def hits(n: int, score: float = 0.9) -> list[Hit]:
    return [hit(f"d{i}", score) for i in range(1, n + 1)]


def test_with_k_60_and_threshold_0_015_rank_6_passes_and_rank_7_does_not() -> None:
    semantic_only = fuse_default(hits(10), [])
    assert [h.id for h in semantic_only] == [f"d{i}" for i in range(1, 7)]
    keyword_only = fuse_default([], hits(10, score=3.0))
    assert [h.id for h in keyword_only] == [f"d{i}" for i in range(1, 7)]
    assert semantic_only[-1].score == 1 / 66


@PROPERTY
@given(
    st.integers(1, 100),
    st.integers(1, 40),
    st.one_of(st.floats(0.001, 0.05), st.integers(2, 140).map(lambda n: 1 / n)),
)
def test_a_single_list_item_passes_iff_its_reciprocal_rank_clears_the_threshold(
    k: int, rank: int, threshold: float
) -> None:
    fused = fuse(hits(rank), [], rrf_rule(k, 0.5, 1.0, threshold))
    passed = f"d{rank}" in {h.id for h in fused}
    assert passed == (1 / (k + rank) >= threshold)


def test_fusion_records_each_retrievers_rank_and_score() -> None:
    fused = fuse_default([hit("a", 0.9), hit("b", 0.8)], [hit("b", 4.0), hit("c", 2.0)])
    assert [h.id for h in fused] == ["b", "a", "c"]
    b, a, c = fused
    assert b == FusedHit("b", 1 / 62 + 1 / 61, 0.8, 2, 4.0, 1)
    assert a == FusedHit("a", 1 / 61, 0.9, 1, None, None)
    assert c == FusedHit("c", 1 / 62, None, None, 2.0, 2)


def test_results_under_a_retrievers_threshold_take_no_rank() -> None:
    fused = fuse_default([hit("low", 0.5), hit("a", 0.7)], [hit("weak", 1.0)])
    assert [(h.id, h.semantic_rank) for h in fused] == [("a", 1)]


SCORED = st.lists(st.tuples(DOCS, st.floats(0, 5)), max_size=10).map(
    lambda pairs: [hit(doc, score) for doc, score in pairs]
)


@PROPERTY
@given(SCORED, SCORED, st.floats(0, 0.04))
def test_fused_results_cleared_every_threshold_and_come_best_first(
    semantic: list[Hit], keyword: list[Hit], rrf_threshold: float
) -> None:
    fused = fuse(semantic, keyword, rrf_rule(floor=rrf_threshold))
    ids = [h.id for h in fused]
    assert len(ids) == len(set(ids))
    passed = {h.id for h in semantic if h.score >= 0.65} | {h.id for h in keyword if h.score >= 1.5}
    assert set(ids) <= passed
    assert all(h.score >= rrf_threshold for h in fused)
    assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)


def test_above_keeps_scores_at_or_over_the_threshold_in_order() -> None:
    given_hits = [hit("a", 0.5), hit("b", 0.7), hit("c", 0.65)]
    assert above(given_hits, 0.65) == [hit("b", 0.7), hit("c", 0.65)]


def test_a_single_retriever_is_thresholded_and_ranked_from_one() -> None:
    semantic = single(
        [hit("a", 0.9), hit("a", 0.8), hit("b", 0.7), hit("c", 0.1)], 0.65, semantic=True
    )
    assert semantic == [FusedHit("a", 0.9, 0.9, 1), FusedHit("b", 0.7, 0.7, 2)]
    keyword = single([hit("a", 2.0)], 1.5, semantic=False)
    assert keyword == [FusedHit("a", 2.0, keyword_score=2.0, keyword_rank=1)]


def test_merging_queries_keeps_each_document_once_with_its_best_score() -> None:
    first = [FusedHit("a", 0.03), FusedHit("b", 0.02)]
    second = [FusedHit("b", 0.032), FusedHit("c", 0.01)]
    merged = merge_queries([first, second])
    assert merged == [FusedHit("b", 0.032), FusedHit("a", 0.03), FusedHit("c", 0.01)]


FUSED_LISTS = st.lists(
    st.lists(st.tuples(DOCS, st.floats(0, 0.04)), max_size=8).map(
        lambda pairs: [FusedHit(doc, score) for doc, score in pairs]
    ),
    max_size=3,
)


@PROPERTY
@given(FUSED_LISTS)
def test_merged_queries_have_no_duplicates_and_the_best_score_of_each(
    per_query: list[list[FusedHit]],
) -> None:
    merged = merge_queries(per_query)
    ids = [h.id for h in merged]
    assert len(ids) == len(set(ids))
    every = [h for hits_ in per_query for h in hits_]
    assert set(ids) == {h.id for h in every}
    for hit in merged:
        assert hit.score == max(h.score for h in every if h.id == hit.id)
    assert [h.score for h in merged] == sorted((h.score for h in merged), reverse=True)


def score_rule(semantic_weight: float = 0.7, keyword_weight: float = 0.3) -> FusionRule:
    weights = FusionWeights(semantic_weight, keyword_weight)
    return FusionRule(Fusion.SCORE, weights, 60, -1.0, float("-inf"), 0.0)


UNIQUE_SCORED = st.dictionaries(DOCS, st.floats(0, 5), max_size=8).map(
    lambda scores: [hit(doc, score) for doc, score in scores.items()]
)
WEIGHTS = st.tuples(st.floats(0, 1), st.floats(0, 1))


def test_score_fusion_scales_each_list_by_its_extremes_and_weighs_them() -> None:
    fused = fuse(
        [hit("a", 0.9), hit("b", 0.5), hit("c", 0.1)], [hit("c", 8.0), hit("d", 2.0)], score_rule()
    )
    assert [(h.id, round(h.score, 6)) for h in fused] == [
        ("a", 0.7),
        ("b", 0.35),
        ("c", 0.3),
        ("d", 0.0),
    ]
    c = next(h for h in fused if h.id == "c")
    assert (c.semantic_score, c.semantic_rank, c.keyword_score, c.keyword_rank) == (0.1, 3, 8.0, 1)


@PROPERTY
@given(UNIQUE_SCORED, UNIQUE_SCORED, WEIGHTS)
def test_score_fusion_is_bounded_by_the_weights(
    semantic: list[Hit], keyword: list[Hit], weights: tuple[float, float]
) -> None:
    fused = fuse(semantic, keyword, score_rule(*weights))
    assert {h.id for h in fused} == {h.id for h in semantic} | {h.id for h in keyword}
    assert all(-1e-12 <= h.score <= sum(weights) + 1e-12 for h in fused)


@PROPERTY
@given(UNIQUE_SCORED, UNIQUE_SCORED, WEIGHTS, st.randoms(use_true_random=False))
def test_score_fusion_does_not_depend_on_the_order_of_the_hits(
    semantic: list[Hit], keyword: list[Hit], weights: tuple[float, float], rng: Any
) -> None:
    shuffled_sem, shuffled_kw = list(semantic), list(keyword)
    rng.shuffle(shuffled_sem)
    rng.shuffle(shuffled_kw)
    rule = score_rule(*weights)
    assert fuse(shuffled_sem, shuffled_kw, rule) == fuse(semantic, keyword, rule)


@PROPERTY
@given(UNIQUE_SCORED, UNIQUE_SCORED, WEIGHTS, st.floats(0, 5), st.booleans())
def test_raising_one_score_of_a_document_never_lowers_its_place(
    semantic: list[Hit], keyword: list[Hit], weights: tuple[float, float], by: float, sem: bool
) -> None:
    hits = semantic if sem else keyword
    if not hits:
        return
    target = hits[0]
    raised = [hit(h.id, h.score + by) if h.id == target.id else h for h in hits]
    rule = score_rule(*weights)
    before = fuse(semantic, keyword, rule)
    after = fuse(raised, keyword, rule) if sem else fuse(semantic, raised, rule)

    def fused_score(fused: list[FusedHit]) -> float:
        return next(h.score for h in fused if h.id == target.id)

    def beaten_by(fused: list[FusedHit]) -> set[str]:
        mine = fused_score(fused)
        return {h.id for h in fused if h.score > mine + 1e-9}

    assert fused_score(after) >= fused_score(before) - 1e-9
    assert beaten_by(after) <= beaten_by(before)


@PROPERTY
@given(RANKINGS, st.integers(1, 100), st.lists(st.floats(0, 3), min_size=5, max_size=5))
def test_weighted_rrf_does_not_depend_on_the_order_of_the_lists(
    rankings: list[list[str]], k: int, weights: list[float]
) -> None:
    weights = weights[: len(rankings)]
    pairs = list(zip(rankings, weights, strict=True))
    backwards = list(reversed(pairs))
    assert rrf_scores([r for r, _ in backwards], k, [w for _, w in backwards]) == rrf_scores(
        rankings, k, weights
    )


def test_weighted_rrf_weighs_each_list() -> None:
    assert dict(rrf_scores([["a"], ["b"]], 60, [2.0, 1.0])) == {"a": 2 / 61, "b": 1 / 61}
    with pytest.raises(ValueError, match="weight"):
        rrf_scores([["a"]], 60, [1.0, 1.0])


@given(st.floats(min_value=0.01, max_value=10.0), st.floats(min_value=0.0, max_value=1.0))
def test_rrf_weights_are_a_ratio_so_the_floor_keeps_its_meaning(
    scale: float, keyword_share: float
) -> None:
    semantic = [Hit(FactId(f"s{i}"), 1.0 - i / 100) for i in range(10)]
    ratio = FusionWeights(1.0, keyword_share)
    scaled = FusionWeights(scale, scale * keyword_share)
    rule = rrf_rule()
    plain = fuse(semantic, [], FusionRule(Fusion.RRF, ratio, 60, 0.0, 0.0, rule.fused_threshold))
    same = fuse(semantic, [], FusionRule(Fusion.RRF, scaled, 60, 0.0, 0.0, rule.fused_threshold))
    assert [h.id for h in same] == [h.id for h in plain]
    assert [h.id for h in same] == [f"s{i}" for i in range(6)]  # up to rank 6, at any scale
