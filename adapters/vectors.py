"""The vectors an embedding model returned, checked and scaled to unit length.

Stores compare vectors by cosine as a dot product, and keep one embedding space: a vector of
another length, a NaN or a zero vector would be stored and then rank, silently, against every
other. Every embedder, remote or local, passes its rows through ``unit_vectors``; what is
wrong is reported through the caller's ``fail`` (a remote answer quotes its body).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from eden_memory.domain.embedding_space import EmbeddingSpace

Fail = Callable[[str], Exception]


def unit_vectors(
    rows: Sequence[Sequence[float]], texts: int, space: EmbeddingSpace, fail: Fail
) -> list[list[float]]:
    """One unit vector of ``space``'s dimension per text, or ``fail(problem)`` raised."""
    if len(rows) != texts:
        raise fail(f"{len(rows)} embeddings for {texts} texts")
    return [_unit(row, index, space, fail) for index, row in enumerate(rows)]


def _unit(row: Sequence[float], index: int, space: EmbeddingSpace, fail: Fail) -> list[float]:
    if len(row) != space.dimension:
        raise fail(
            f"embedding {index} has {len(row)} dimensions where {space.model} was asked "
            f"for {space.dimension}"
        )
    norm = math.sqrt(math.fsum(v * v for v in row))
    if not math.isfinite(norm) or norm == 0.0:
        raise fail(f"embedding {index} cannot be normalized (length {norm})")
    return [v / norm for v in row]
