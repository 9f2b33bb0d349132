"""Raising a candidate by the best score of another candidate from its session."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.session_context import raise_by_session, session_bonuses
from tests.unit.domain.builders import PROPERTY


def test_a_fact_gains_a_share_of_its_best_session_mate() -> None:
    hits = [
        FusedHit("a", 0.9),
        FusedHit("b", 0.5),
        FusedHit("c", 0.4),
        FusedHit("d", 0.45),
        FusedHit("e", 0.0),  # the weakest candidate: the others' leads are their scores
    ]
    sessions = {"a": "s1", "b": "s2", "c": "s1", "d": "s3"}
    bonuses = session_bonuses(hits, sessions, 0.3)
    assert bonuses == pytest.approx({"a": 0.12, "c": 0.27})  # b and d are alone in theirs
    raised = raise_by_session(hits, bonuses)
    assert [(h.id, round(h.score, 6)) for h in raised] == [
        ("a", 1.02),
        ("c", 0.67),
        ("b", 0.5),
        ("d", 0.45),
        ("e", 0.0),
    ]


def test_a_share_of_the_lead_over_the_weakest_candidate_on_a_retriever_s_own_scale() -> None:
    # e5 cosines of one question: a share of the cosine itself (0.3 x 0.86 = 0.26) would put
    # the session-mates "b" and "c" above "a", the best hit, by a distance no two cosines have.
    hits = [FusedHit("a", 0.88), FusedHit("b", 0.86), FusedHit("c", 0.80), FusedHit("d", 0.78)]
    sessions = {"b": "s1", "c": "s1"}
    bonuses = session_bonuses(hits, sessions, 0.3)
    assert bonuses == pytest.approx({"b": 0.3 * 0.02, "c": 0.3 * 0.08})
    assert [h.id for h in raise_by_session(hits, bonuses)] == ["a", "b", "c", "d"]


def test_facts_without_a_session_or_with_no_weight_are_left_alone() -> None:
    hits = [FusedHit("a", 0.9), FusedHit("b", 0.5)]
    assert session_bonuses(hits, {}, 0.3) == {}
    assert session_bonuses(hits, {"a": "s", "b": "s"}, 0.0) == {}
    assert raise_by_session(hits, {}) == hits


def test_the_weakest_candidate_gives_its_mates_nothing() -> None:
    hits = [FusedHit("a", 0.0), FusedHit("b", -0.2), FusedHit("c", 0.3)]
    bonuses = session_bonuses(hits, {"a": "s", "b": "s", "c": "t"}, 0.5)
    assert bonuses == pytest.approx({"b": 0.1})  # a leads b by 0.2; b leads nobody
    assert session_bonuses([FusedHit("a", 0.4), FusedHit("b", 0.4)], {"a": "s", "b": "s"}, 1) == {}


scores = st.floats(0, 1, allow_nan=False)
lists = st.lists(st.tuples(scores, st.sampled_from(["s1", "s2", "s3", None])), max_size=12)


def _hits(drawn: list[tuple[float, str | None]]) -> tuple[list[FusedHit], dict[str, str]]:
    hits = [FusedHit(f"f{i}", score) for i, (score, _) in enumerate(drawn)]
    sessions = {f"f{i}": s for i, (_, s) in enumerate(drawn) if s is not None}
    return hits, sessions


@PROPERTY
@given(lists, st.floats(0, 2), st.randoms())
def test_bonuses_do_not_depend_on_the_order_of_the_candidates(
    drawn: list[tuple[float, str | None]], weight: float, rng: random.Random
) -> None:
    hits, sessions = _hits(drawn)
    shuffled = list(hits)
    rng.shuffle(shuffled)
    assert session_bonuses(shuffled, sessions, weight) == pytest.approx(
        session_bonuses(hits, sessions, weight)
    )


@PROPERTY
@given(lists, st.floats(0, 2))
def test_raising_keeps_every_hit_never_lowers_one_and_is_bounded(
    drawn: list[tuple[float, str | None]], weight: float
) -> None:
    hits, sessions = _hits(drawn)
    raised = raise_by_session(hits, session_bonuses(hits, sessions, weight))
    before = {h.id: h.score for h in hits}
    spread = max(before.values(), default=0.0) - min(before.values(), default=0.0)
    assert sorted(h.id for h in raised) == sorted(before)
    assert all(before[h.id] <= h.score <= before[h.id] + weight * spread + 1e-12 for h in raised)
    assert [h.score for h in raised] == sorted((h.score for h in raised), reverse=True)


@PROPERTY
@given(lists, st.floats(0.01, 2), st.integers(0, 11), st.floats(0, 1))
def test_a_candidate_scoring_higher_never_lowers_anyone_else(
    drawn: list[tuple[float, str | None]], weight: float, which: int, more: float
) -> None:
    hits, sessions = _hits(drawn)
    if not hits:
        return
    hits.append(FusedHit("weakest", 0.0))  # stays the weakest: the leads' origin holds still
    i = which % (len(hits) - 1)
    higher = [h if n != i else FusedHit(h.id, h.score + more) for n, h in enumerate(hits)]
    before = session_bonuses(hits, sessions, weight)
    after = session_bonuses(higher, sessions, weight)
    assert all(after.get(doc, 0.0) >= gain - 1e-12 for doc, gain in before.items())


@PROPERTY
@given(lists, st.floats(0, 2), st.floats(-1, 1), st.floats(0.01, 100))
def test_bonuses_mean_the_same_on_every_scale(
    drawn: list[tuple[float, str | None]], weight: float, shift: float, factor: float
) -> None:
    """Moving every score by one amount leaves the bonuses as they were; scaling every score
    scales them alike: a retriever's own scale (cosines, BM25) is raised as fused scores are."""
    hits, sessions = _hits(drawn)
    bonuses = session_bonuses(hits, sessions, weight)
    moved = [FusedHit(h.id, h.score + shift) for h in hits]
    scaled = [FusedHit(h.id, h.score * factor) for h in hits]
    for other, times in (
        (session_bonuses(moved, sessions, weight), 1.0),
        (session_bonuses(scaled, sessions, weight), factor),
    ):
        for doc in {*bonuses, *other}:  # a lead of 0 may come out a rounding error over it
            assert other.get(doc, 0.0) == pytest.approx(bonuses.get(doc, 0.0) * times, abs=1e-6)
