"""Ranking: fusing the semantic and keyword lists, score thresholds, several queries.

Two fusions, chosen by ``SearchSettings.fusion``:

* **score** (the default): each list's scores are scaled to [0, 1] by its own best and worst
  (min-max), and a document scores ``w_sem * semantic + w_kw * keyword`` (0 where a list
  lacks it). The scores keep how far apart the hits are, which ranks alone forget: on LoCoMo
  this beats each retriever alone, while equal-weight RRF falls below the embedder alone
  because the keyword list is the weaker one (docs/record/benchmarks-history.md).
* **rrf**: Reciprocal Rank Fusion, ``w_sem / (k + rank) + w_kw / (k + rank)``, weights 1 and 1
  being the classic form (Atlas ``$rankFusion`` does the same). Ranks start at 1, so the best
  item of a list contributes ``1 / (k + 1)``; with k = 60 a floor of 0.015 keeps single-list
  items up to rank 6 (1/66 ≈ 0.01515) and drops rank 7 (1/67 ≈ 0.01493).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from eden_memory.domain.ids import FactId


class Fusion(StrEnum):
    SCORE = "score"
    RRF = "rrf"


@dataclass(frozen=True)
class FusionWeights:
    semantic: float = 1.0
    keyword: float = 1.0


@dataclass(frozen=True)
class Hit:
    """One fact of a ranked list, by id, with the score its retriever gave it.

    Stores return rankings as hits (ids only: a search fuses several rankings and reads just
    the facts it keeps). Semantic scores are the cosine in [-1, 1]; keyword scores are
    positive, larger is better.
    """

    id: FactId
    score: float
    # Keyword hits: the share of the question's keyword weight the fact holds (``relevance``),
    # where the store can tell; None otherwise.
    coverage: float | None = None


@dataclass(frozen=True)
class FusedHit:
    id: str
    score: float  # the fused score in hybrid search, the retriever's own otherwise
    semantic_score: float | None = None
    semantic_rank: int | None = None
    keyword_score: float | None = None
    keyword_rank: int | None = None
    keyword_coverage: float | None = None


def rrf_scores(
    rankings: Sequence[Sequence[str]], k: int, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(d) = sum over lists of w / (k + rank_d), ranks from 1.

    Ties are broken by the best rank a document reached, then by id, so the result does not
    depend on the order of the lists. Repeats within one list count once, at the first rank.
    """
    if k <= 0:
        raise ValueError("k must be positive")
    weights = [1.0] * len(rankings) if weights is None else weights
    if len(weights) != len(rankings) or any(w < 0 for w in weights):
        raise ValueError("one non-negative weight per ranking")
    parts: dict[str, list[float]] = {}
    best: dict[str, int] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, doc in enumerate(dict.fromkeys(ranking), start=1):
            parts.setdefault(doc, []).append(weight / (k + rank))
            best[doc] = min(best.get(doc, rank), rank)
    # fsum is correctly rounded, so a score does not depend on the order of the lists
    # (a running float sum does, by one unit in the last place).
    scores = {doc: math.fsum(terms) for doc, terms in parts.items()}
    return sorted(scores.items(), key=lambda item: (-item[1], best[item[0]], item[0]))


def above(hits: Sequence[Hit], threshold: float) -> list[Hit]:
    """Hits scoring at or above the threshold, order kept."""
    return [h for h in hits if h.score >= threshold]


def min_max_scores(
    lists: Sequence[Sequence[Hit]], weights: Sequence[float]
) -> list[tuple[str, float]]:
    """Fuse scored lists: each list scaled to [0, 1] by its extremes, then a weighted sum.

    A list whose scores are all equal scales them to 1. Ties are broken by the best position
    a document reached, then by id, so the result does not depend on the order of the lists.
    """
    if len(weights) != len(lists) or any(w < 0 for w in weights):
        raise ValueError("one non-negative weight per list")
    parts: dict[str, list[float]] = {}
    best: dict[str, int] = {}
    for hits, weight in zip(lists, weights, strict=True):
        hits = _first_only(hits)
        if not hits:
            continue
        low, high = min(h.score for h in hits), max(h.score for h in hits)
        for position, h in enumerate(_best_first(hits), start=1):
            scaled = 1.0 if high == low else (h.score - low) / (high - low)
            parts.setdefault(h.id, []).append(weight * scaled)
            best[h.id] = min(best.get(h.id, position), position)
    scores = {doc: math.fsum(terms) for doc, terms in parts.items()}
    return sorted(scores.items(), key=lambda item: (-item[1], best[item[0]], item[0]))


@dataclass(frozen=True)
class FusionRule:
    """How hybrid search fuses its two lists, and the floors each must clear."""

    fusion: Fusion
    weights: FusionWeights
    rrf_k: int
    semantic_threshold: float
    text_threshold: float
    fused_threshold: float  # the RRF floor for ``rrf``; a floor on the fused score for ``score``


def fuse(semantic: Sequence[Hit], keyword: Sequence[Hit], rule: FusionRule) -> list[FusedHit]:
    """Hybrid ranking: threshold each retriever, fuse, keep what clears the fused floor."""
    sem = _first_only(above(semantic, rule.semantic_threshold))
    kw = _first_only(above(keyword, rule.text_threshold))
    if rule.fusion is Fusion.SCORE:  # scores, not list positions, decide: ties go by id
        sem, kw = _best_first(sem), _best_first(kw)
    sem_at: dict[str, tuple[int, float]] = {h.id: (r, h.score) for r, h in enumerate(sem, start=1)}
    kw_at: dict[str, tuple[int, float]] = {h.id: (r, h.score) for r, h in enumerate(kw, start=1)}
    covered: dict[str, float | None] = {h.id: h.coverage for h in kw}
    weights = [rule.weights.semantic, rule.weights.keyword]
    if rule.fusion is Fusion.RRF:
        # The floor is set for the classic weights 1 and 1 (single-list hits up to rank 6);
        # weights are a ratio, so the heavier list counts 1 whatever their sum (with the
        # defaults 0.5 and 0.5 a single-list hit scored at most 0.0082 and nothing passed).
        top = max(weights)
        ratio = [w / top for w in weights] if top > 0 else weights
        scored = rrf_scores([[h.id for h in sem], [h.id for h in kw]], rule.rrf_k, ratio)
    else:
        scored = min_max_scores([sem, kw], weights)
    fused: list[FusedHit] = []
    for doc, score in scored:
        if score < rule.fused_threshold:
            continue
        s_rank, s_score = sem_at.get(doc, (None, None))
        k_rank, k_score = kw_at.get(doc, (None, None))
        fused.append(FusedHit(doc, score, s_score, s_rank, k_score, k_rank, covered.get(doc)))
    return fused


def single(hits: Sequence[Hit], threshold: float, *, semantic: bool) -> list[FusedHit]:
    """One retriever alone (semantic-only or keyword-only search), thresholded, as fused hits."""
    kept = _first_only(above(hits, threshold))
    if semantic:
        return [FusedHit(h.id, h.score, h.score, r) for r, h in enumerate(kept, start=1)]
    return [
        FusedHit(h.id, h.score, keyword_score=h.score, keyword_rank=r, keyword_coverage=h.coverage)
        for r, h in enumerate(kept, start=1)
    ]


def merge_queries(per_query: Sequence[Sequence[FusedHit]]) -> list[FusedHit]:
    """One list for several queries: each document once, with its best score, best first."""
    best: dict[str, FusedHit] = {}
    first_seen: dict[str, tuple[int, int]] = {}
    for q, hits in enumerate(per_query):
        for pos, hit in enumerate(hits):
            first_seen.setdefault(hit.id, (q, pos))
            if hit.id not in best or hit.score > best[hit.id].score:
                best[hit.id] = hit
    return sorted(best.values(), key=lambda h: (-h.score, first_seen[h.id], h.id))


def _first_only(hits: Sequence[Hit]) -> list[Hit]:
    seen: set[str] = set()
    out: list[Hit] = []
    for h in hits:
        if h.id not in seen:
            seen.add(h.id)
            out.append(h)
    return out


def _best_first(hits: Sequence[Hit]) -> list[Hit]:
    return sorted(hits, key=lambda h: (-h.score, h.id))
