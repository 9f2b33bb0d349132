"""The decisions a search takes between its reads, as pure functions over values.

``application/search/`` carries them out through the ports: how deep each retriever reads,
the floors a query's lists are fused under, which candidates a winner's place may pass to,
which candidates a reranker judges, what each hit's relevance rests on, and whether the
search holds its hits back (abstains). What the numbers mean is ``domain/relevance.py``'s.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TypeVar

from eden_memory.domain.ranking import FusedHit, Fusion, FusionRule, FusionWeights
from eden_memory.domain.relevance import Backdrop, SemanticScale, answerable, hit_relevance
from eden_memory.domain.settings import SearchSettings

T = TypeVar("T")


def retrieval_depth(k: int, s: SearchSettings) -> int:
    """How many candidates each retriever reads for a search of ``k`` results."""
    return max(k * s.candidates_per_list, s.min_candidates_per_list)


def unfloored_rule(s: SearchSettings) -> FusionRule:
    """The fusion of ``s`` with every floor off (a search run without thresholds)."""
    weights = FusionWeights(s.semantic_weight, s.keyword_weight)
    return FusionRule(s.fusion, weights, s.rrf_k, -1.0, float("-inf"), 0.0)


def floored_rule(s: SearchSettings, semantic_floor: float, store_text_floor: float) -> FusionRule:
    """The fusion of ``s`` with its floors: the keyword floor is the store's unless ``s``
    fixes one; the fused floor is the RRF one for ``rrf``, the score one otherwise."""
    weights = FusionWeights(s.semantic_weight, s.keyword_weight)
    text = store_text_floor if s.text_threshold is None else s.text_threshold
    fused = s.rrf_threshold if s.fusion is Fusion.RRF else s.score_threshold
    return FusionRule(s.fusion, weights, s.rrf_k, semantic_floor, text, fused)


def live_tops(
    lists: Sequence[Sequence[FusedHit]], gone: Container[str], k: int
) -> list[list[FusedHit]]:
    """Each query's best ``k`` candidates but those ``gone`` (expired, or changed since they
    were ranked): a candidate left out gives its place to the next one of its list."""
    return [[h for h in hits if h.id not in gone][:k] for hits in lists]


def unread(tops: Sequence[Sequence[FusedHit]], read: Container[str]) -> list[str]:
    """The ids of ``tops`` not yet ``read``, each once, in list order."""
    return list(dict.fromkeys(h.id for t in tops for h in t if h.id not in read))


def judged_pool(kept: Sequence[FusedHit], deeper: Sequence[FusedHit], depth: int) -> list[FusedHit]:
    """What a reranker judges: the results (``kept``), then the next candidates of
    ``deeper`` not among them, ``depth`` in all (or the results alone, when more)."""
    shown = {h.id for h in kept}
    room = max(0, depth - len(kept))
    return [*kept, *[h for h in deeper if h.id not in shown][:room]]


def hit_evidence(
    wanted: Container[str], lists: Sequence[Sequence[FusedHit]]
) -> tuple[dict[str, float], dict[str, float]]:
    """For each ``wanted`` hit, its best cosine and its best keyword coverage across
    ``lists`` (each absent where no list scored it so)."""
    semantic: dict[str, float] = {}
    coverage: dict[str, float] = {}
    for hits in lists:
        for h in hits:
            if h.id not in wanted:
                continue
            if h.semantic_score is not None:
                semantic[h.id] = max(h.semantic_score, semantic.get(h.id, -1.0))
            if h.keyword_coverage is not None:
                coverage[h.id] = max(h.keyword_coverage, coverage.get(h.id, 0.0))
    return semantic, coverage


def backdrops(
    seen: Sequence[Sequence[tuple[str, float]]], wanted: Container[str]
) -> dict[str, Backdrop | None]:
    """For each of ``wanted`` some query's candidates (``seen``) hold, the backdrop of the
    query that scored it highest; under the key "" the first query's (for hits none holds)."""
    drops = [Backdrop.of([score for _, score in hits]) for hits in seen]
    best: dict[str, tuple[float, Backdrop | None]] = {}
    for hits, drop in zip(seen, drops, strict=True):
        for fact, score in hits:
            if fact in wanted and score > best.get(fact, (-2.0, None))[0]:
                best[fact] = (score, drop)
    return {"": drops[0] if drops else None} | {f: d for f, (_, d) in best.items()}


def relevances(
    scale: SemanticScale,
    kept: Sequence[FusedHit],
    cosines: dict[str, float],
    coverage: dict[str, float],
    drops: dict[str, Backdrop | None],
    named: float,
) -> list[float | None]:
    """Each kept hit's relevance from its evidence; a hit no query's candidates hold is read
    against the first query's backdrop."""
    first = drops.get("")
    return [
        hit_relevance(scale, cosines.get(h.id), coverage.get(h.id), drops.get(h.id, first), named)
        for h in kept
    ]


def abstention_line(s: SearchSettings, thresholds: bool) -> float:
    """The relevance the best hit must reach for any to be returned (0: abstention off)."""
    return s.abstain_below if thresholds else 0.0


def abstains(relevances: list[float | None], line: float) -> bool:
    """Whether a search holds back every hit: it has some, abstention is on, and none is
    answerable at ``line`` (``domain.relevance.answerable``)."""
    return bool(relevances) and line > 0 and not answerable(relevances, line)


def abstained(
    found: Sequence[T], relevances: list[float | None], line: float
) -> tuple[list[T], list[T]]:
    """``found`` as what is shown and what is held back: all held back when the search
    abstains, none otherwise."""
    return ([], list(found)) if abstains(relevances, line) else (list(found), [])
