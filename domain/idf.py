"""Inverse document frequency that stays sound whatever counts a keyword index reports.

A store reads two running counts: how many documents its index holds (N) and how many hold a
term (n). Counts that disagree (n over N after a write that lowered N, as an embedded store
of issue 40 did; a negative or absurd count from a damaged file) must not fail a search or
give it an infinite or negative weight: both are taken as what they can mean, 0 <= n <= N
within 64 bits, so every weight is finite and non-negative.
"""

from __future__ import annotations

import math

from eden_memory.domain.bounds import MAX_COUNT  # counts are 64-bit in every store

# SQLite FTS5's bm25() raises an idf of zero or less (a term in half the documents or more)
# to this, so a match on a common word still scores a little.
FTS5_IDF_FLOOR = 1e-6


def bm25_idf(documents: int, holding: int) -> float:
    """Lucene's always-positive idf, ln(1 + (N - n + 0.5) / (n + 0.5)): 0 < idf <= ~44."""
    n, total = _sound(documents, holding)
    return math.log1p((total - n + 0.5) / (n + 0.5))


def fts5_idf(documents: int, holding: int) -> float:
    """SQLite FTS5's idf, ln((N - n + 0.5) / (n + 0.5)), floored at ``FTS5_IDF_FLOOR``."""
    n, total = _sound(documents, holding)
    return max(math.log((total - n + 0.5) / (n + 0.5)), FTS5_IDF_FLOOR)


def _sound(documents: int, holding: int) -> tuple[int, int]:
    """(n, N) with 0 <= n <= N <= MAX_COUNT: a term is held by no more documents than exist."""
    n = min(max(holding, 0), MAX_COUNT)
    return n, min(max(documents, n), MAX_COUNT)
