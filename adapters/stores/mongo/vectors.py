"""Exact cosine top-k without Atlas Vector Search: every visible candidate is scored.

numpy is used when it is installed (one matrix product); plain Python otherwise. Either
way the cost grows with the number of visible facts, which is why the store warns once
when it runs on this path.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from eden_memory.domain.vectors import cosine


def _scores(query: Sequence[float], vectors: Sequence[Sequence[float]]) -> list[float]:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is optional
        return [cosine(query, v) for v in vectors]
    matrix = np.asarray(vectors, dtype=np.float64)
    q = np.asarray(query, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1) * np.linalg.norm(q)
    dots = matrix @ q
    safe = np.where(norms > 0, norms, 1.0)
    return [float(x) for x in np.where(norms > 0, dots / safe, 0.0)]


def top_k(
    query: Sequence[float], candidates: Sequence[tuple[str, Sequence[float]]], k: int
) -> list[tuple[str, float]]:
    """The ``k`` most similar candidates as (id, cosine), best first (ties by id)."""
    if k <= 0 or not candidates:
        return []
    scores = _scores(query, [vector for _, vector in candidates])
    scored = [(doc_id, score) for (doc_id, _), score in zip(candidates, scores, strict=True)]
    return heapq.nsmallest(k, scored, key=lambda item: (-item[1], item[0]))


def merged(
    first: Sequence[tuple[str, float]], second: Sequence[tuple[str, float]], k: int
) -> list[tuple[str, float]]:
    """Two rankings of the same measure as one: each id once at its best score, best first."""
    best: dict[str, float] = {}
    for doc_id, score in [*first, *second]:
        best[doc_id] = max(score, best.get(doc_id, score))
    return heapq.nsmallest(k, best.items(), key=lambda item: (-item[1], item[0]))
