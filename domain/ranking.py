"""Ranking: Reciprocal Rank Fusion, score thresholds, and merging several queries.

Rank convention: ranks start at 1, so the best item of a list contributes ``1 / (k + 1)``.
With k = 60 that is 1/61 ≈ 0.0164; a threshold of 0.015 then keeps single-list items up to
rank 6 (1/66 ≈ 0.01515) and drops rank 7 (1/67 ≈ 0.01493).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    """One item of a ranked list with the score its retriever gave it."""

    id: str
    score: float


@dataclass(frozen=True)
class FusedHit:
    id: str
    rrf_score: float
    semantic_score: float | None = None
    semantic_rank: int | None = None
    keyword_score: float | None = None
    keyword_rank: int | None = None


def rrf_scores(rankings: Sequence[Sequence[str]], k: int) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(d) = sum over lists of 1 / (k + rank_d), ranks from 1.

    Ties are broken by the best rank a document reached, then by id, so the result does not
    depend on the order of the lists. Repeats within one list count once, at the first rank.
    """
    if k <= 0:
        raise ValueError("k must be positive")
    parts: dict[str, list[float]] = {}
    best: dict[str, int] = {}
    for ranking in rankings:
        for rank, doc in enumerate(dict.fromkeys(ranking), start=1):
            parts.setdefault(doc, []).append(1.0 / (k + rank))
            best[doc] = min(best.get(doc, rank), rank)
    # fsum is correctly rounded, so a score does not depend on the order of the lists
    # (a running float sum does, by one unit in the last place).
    scores = {doc: math.fsum(terms) for doc, terms in parts.items()}
    return sorted(scores.items(), key=lambda item: (-item[1], best[item[0]], item[0]))


def above(hits: Sequence[Hit], threshold: float) -> list[Hit]:
    """Hits scoring at or above the threshold, order kept."""
    return [h for h in hits if h.score >= threshold]


def fuse(
    semantic: Sequence[Hit],
    keyword: Sequence[Hit],
    *,
    k: int,
    semantic_threshold: float,
    text_threshold: float,
    rrf_threshold: float,
) -> list[FusedHit]:
    """Hybrid ranking: threshold each retriever, fuse by RRF, keep what clears the RRF floor."""
    sem = _first_only(above(semantic, semantic_threshold))
    kw = _first_only(above(keyword, text_threshold))
    sem_at = {h.id: (rank, h.score) for rank, h in enumerate(sem, start=1)}
    kw_at = {h.id: (rank, h.score) for rank, h in enumerate(kw, start=1)}
    fused: list[FusedHit] = []
    for doc, score in rrf_scores([[h.id for h in sem], [h.id for h in kw]], k):
        if score < rrf_threshold:
            continue
        s_rank, s_score = sem_at.get(doc, (None, None))
        k_rank, k_score = kw_at.get(doc, (None, None))
        fused.append(FusedHit(doc, score, s_score, s_rank, k_score, k_rank))
    return fused


def single(hits: Sequence[Hit], threshold: float, *, semantic: bool) -> list[FusedHit]:
    """One retriever alone (semantic-only or keyword-only search), thresholded, as fused hits."""
    kept = _first_only(above(hits, threshold))
    if semantic:
        return [FusedHit(h.id, h.score, h.score, r) for r, h in enumerate(kept, start=1)]
    return [
        FusedHit(h.id, h.score, keyword_score=h.score, keyword_rank=r)
        for r, h in enumerate(kept, start=1)
    ]


def merge_queries(per_query: Sequence[Sequence[FusedHit]]) -> list[FusedHit]:
    """One list for several queries: each document once, with its best score, best first."""
    best: dict[str, FusedHit] = {}
    first_seen: dict[str, tuple[int, int]] = {}
    for q, hits in enumerate(per_query):
        for pos, hit in enumerate(hits):
            first_seen.setdefault(hit.id, (q, pos))
            if hit.id not in best or hit.rrf_score > best[hit.id].rrf_score:
                best[hit.id] = hit
    return sorted(best.values(), key=lambda h: (-h.rrf_score, first_seen[h.id], h.id))


def _first_only(hits: Sequence[Hit]) -> list[Hit]:
    seen: set[str] = set()
    out: list[Hit] = []
    for h in hits:
        if h.id not in seen:
            seen.add(h.id)
            out.append(h)
    return out
