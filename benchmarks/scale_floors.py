"""The exact top 10 a search is compared with, computed the fastest ways at hand.

A ratio to a slow floor flatters (numpy's float16 product has no SIMD path: ~32x slower
than SimSIMD on the same vectors), so every way is timed on the same queries and the
fastest is the floor: float32 with BLAS (its own threads), float32 on one thread
(``einsum``: on a busy or small machine BLAS's threads can lose), and SimSIMD's float16 dot
product on one thread and on every core (what the embedded store scans with).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import simsimd

Matrix = npt.NDArray[np.float32]
TOP_K = 10
CORES = os.cpu_count() or 1


def _top(scores: npt.NDArray[np.floating]) -> None:
    best = np.argpartition(-scores, TOP_K - 1)[:TOP_K]
    best[np.argsort(-scores[best])]


def _half(rows: npt.NDArray[np.float16], query: Matrix, threads: int) -> None:
    got = simsimd.cdist(
        query.astype(np.float16)[None, :], rows, metric="dot", threads=threads, out_dtype="float32"
    )
    _top(np.asarray(got, dtype=np.float32)[0])


class Floors:
    """The floors over one matrix of unit rows (a float16 copy made once, untimed)."""

    def __init__(self, matrix: Matrix) -> None:
        half = matrix.astype(np.float16)
        self.rows = len(matrix)
        self.ways: dict[str, Callable[[Matrix], None]] = {
            "float32 BLAS": lambda q: _top(matrix @ q),
            "float32 one thread": lambda q: _top(np.einsum("ij,j->i", matrix, q)),
            "float16 SimSIMD one thread": lambda q: _half(half, q, 1),
            f"float16 SimSIMD {CORES} threads": lambda q: _half(half, q, CORES),
        }

    def time_all(self, query: Matrix, into: dict[str, list[float]], prefix: str) -> None:
        """Run every way on ``query``; milliseconds appended under ``prefix + name``."""
        for name, way in self.ways.items():
            started = time.perf_counter()
            way(query)
            into.setdefault(prefix + name, []).append((time.perf_counter() - started) * 1000)


def fastest(p50s: dict[str, float], prefix: str) -> tuple[str, float]:
    """The fastest way (by p50) among the timings under ``prefix``."""
    name, value = min(((k, v) for k, v in p50s.items() if k.startswith(prefix)), key=lambda x: x[1])
    return name.removeprefix(prefix), value
