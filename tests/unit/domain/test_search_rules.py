"""A search's decisions between its reads, as pure functions: examples and properties."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ranking import FusedHit, Fusion
from eden_memory.domain.relevance import Backdrop, SemanticScale
from eden_memory.domain.search_rules import (
    abstained,
    abstains,
    abstention_line,
    backdrops,
    floored_rule,
    hit_evidence,
    judged_pool,
    live_tops,
    relevances,
    retrieval_depth,
    unfloored_rule,
    unread,
)
from eden_memory.domain.settings import SearchSettings

IDS = st.sampled_from([f"f{i}" for i in range(12)])
COSINES = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
COVERAGES = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
RELEVANCES = st.one_of(st.none(), COVERAGES)
SCALE = SemanticScale(0.75, 0.8, 0.9)


@st.composite
def fused_lists(draw: st.DrawFn) -> list[FusedHit]:
    """One query's fused list: each id once, with or without each retriever's evidence."""
    ids = draw(st.lists(IDS, unique=True, max_size=10))
    return [
        FusedHit(
            i,
            draw(COSINES),
            semantic_score=draw(st.one_of(st.none(), COSINES)),
            keyword_coverage=draw(st.one_of(st.none(), COVERAGES)),
        )
        for i in ids
    ]


LISTS = st.lists(fused_lists(), max_size=3)


@given(st.integers(1, 50), st.integers(1, 10), st.integers(1, 200))
def test_each_retriever_reads_k_times_its_share_and_never_under_the_minimum(
    k: int, per_list: int, minimum: int
) -> None:
    s = SearchSettings(candidates_per_list=per_list, min_candidates_per_list=minimum)
    depth = retrieval_depth(k, s)
    assert depth >= minimum
    assert depth >= k * per_list
    assert depth in {minimum, k * per_list}


def test_the_keyword_floor_is_the_store_s_unless_settings_fix_one() -> None:
    assert floored_rule(SearchSettings(), 0.8, 1.5).text_threshold == 1.5
    assert floored_rule(SearchSettings(text_threshold=3.0), 0.8, 1.5).text_threshold == 3.0
    assert floored_rule(SearchSettings(), 0.8, 1.5).semantic_threshold == 0.8


def test_the_fused_floor_follows_the_fusion() -> None:
    rrf = SearchSettings(fusion=Fusion.RRF, rrf_threshold=0.01, score_threshold=0.3)
    score = SearchSettings(fusion=Fusion.SCORE, rrf_threshold=0.01, score_threshold=0.3)
    assert floored_rule(rrf, 0.8, 1.5).fused_threshold == 0.01
    assert floored_rule(score, 0.8, 1.5).fused_threshold == 0.3


def test_a_search_without_thresholds_has_every_floor_under_any_score() -> None:
    rule = unfloored_rule(SearchSettings())
    assert rule.semantic_threshold == -1.0
    assert rule.text_threshold == -math.inf
    assert rule.fused_threshold == 0.0
    assert abstention_line(SearchSettings(), thresholds=False) == 0.0
    assert abstention_line(SearchSettings(), thresholds=True) == SearchSettings().abstain_below


@given(LISTS, st.sets(IDS), st.integers(1, 12))
def test_a_gone_candidate_gives_its_place_to_the_next_of_its_list(
    lists: list[list[FusedHit]], gone: set[str], k: int
) -> None:
    tops = live_tops(lists, gone, k)
    for hits, top in zip(lists, tops, strict=True):
        live = [h for h in hits if h.id not in gone]
        assert top == live[:k]


@given(LISTS, st.sets(IDS))
def test_unread_names_every_candidate_not_read_once(
    lists: list[list[FusedHit]], read: set[str]
) -> None:
    ids = unread(lists, read)
    assert len(ids) == len(set(ids))
    assert set(ids) == {h.id for hits in lists for h in hits} - read


@given(fused_lists(), fused_lists(), st.integers(0, 20))
def test_a_reranker_judges_the_results_first_then_new_candidates_down_to_its_depth(
    kept: list[FusedHit], deeper: list[FusedHit], depth: int
) -> None:
    judged = judged_pool(kept, deeper, depth)
    assert judged[: len(kept)] == kept
    added = judged[len(kept) :]
    assert not {h.id for h in added} & {h.id for h in kept}
    fresh = [h for h in deeper if h.id not in {k.id for k in kept}]
    assert added == fresh[: max(0, depth - len(kept))]


@given(LISTS, st.sets(IDS))
def test_a_hit_s_keyword_evidence_is_its_best_coverage_among_the_wanted(
    lists: list[list[FusedHit]], wanted: set[str]
) -> None:
    semantic, coverage = hit_evidence(wanted, lists)
    assert set(semantic) <= wanted
    assert set(coverage) <= wanted
    for fact, best in coverage.items():
        found = [h.keyword_coverage for hits in lists for h in hits if h.id == fact]
        assert best == max(c for c in found if c is not None)


SEEN = st.lists(st.lists(st.tuples(IDS, COSINES), max_size=12), max_size=3)


@given(SEEN, st.sets(IDS))
def test_a_hit_is_read_against_the_backdrop_of_the_query_that_scored_it_highest(
    seen: list[list[tuple[str, float]]], wanted: set[str]
) -> None:
    drops = backdrops(seen, wanted)
    assert drops[""] == (Backdrop.of([s for _, s in seen[0]]) if seen else None)
    for fact in wanted:
        scored = [(s, q) for q, hits in enumerate(seen) for f, s in hits if f == fact]
        if not scored:
            assert fact not in drops
            continue
        best = max(s for s, _ in scored)
        first = min(q for s, q in scored if s == best)
        assert drops[fact] == Backdrop.of([s for _, s in seen[first]])


@given(LISTS, st.floats(0.0, 1.0))
def test_a_hit_has_a_relevance_from_0_to_1_and_none_only_without_evidence(
    lists: list[list[FusedHit]], named: float
) -> None:
    kept = [h for hits in lists for h in hits]
    semantic, coverage = hit_evidence({h.id for h in kept}, lists)
    judged = relevances(SCALE, kept, semantic, coverage, {"": None}, named)
    assert len(judged) == len(kept)
    for h, r in zip(kept, judged, strict=True):
        if r is None:
            assert h.id not in semantic
            assert h.id not in coverage
        else:
            assert 0.0 <= r <= 1.0


@given(st.lists(RELEVANCES, max_size=6), st.floats(-1.0, 1.0))
def test_a_search_abstains_only_when_every_hit_is_known_to_be_under_a_positive_line(
    judged: list[float | None], line: float
) -> None:
    expected = bool(judged) and line > 0 and all(r is not None and r < line for r in judged)
    assert abstains(judged, line) is expected


def test_a_cosine_of_zero_is_evidence_a_lower_cosine_does_not_replace() -> None:
    lists = [[FusedHit("f1", 0.5, semantic_score=0.0)], [FusedHit("f1", 0.4, semantic_score=-0.2)]]
    semantic, _ = hit_evidence({"f1"}, lists)
    assert semantic == {"f1": 0.0}


@given(LISTS, st.sets(IDS))
def test_a_hit_s_semantic_evidence_is_its_best_cosine_among_the_wanted(
    lists: list[list[FusedHit]], wanted: set[str]
) -> None:
    semantic, _ = hit_evidence(wanted, lists)
    for fact in wanted:
        found = [h.semantic_score for hits in lists for h in hits if h.id == fact]
        known = [s for s in found if s is not None]
        assert semantic.get(fact) == (max(known) if known else None)


@given(st.lists(RELEVANCES, max_size=6), st.floats(-1.0, 1.0))
def test_an_abstaining_search_holds_back_every_hit_and_any_other_holds_back_none(
    judged: list[float | None], line: float
) -> None:
    found = [f"f{i}" for i in range(len(judged))]
    shown, held = abstained(found, judged, line)
    assert (held, shown) == ((found, []) if abstains(judged, line) else ([], found))
