"""How many threads a vector scan takes: one for small scans, never more than half the cores.

No test depends on this machine's CPU: the cores are given, and SimSIMD is replaced by a fake
that records the threads it is asked for.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite.vectors import scan
from eden_memory.adapters.stores.sqlite.vectors.scan import (
    MAX_SCAN_THREADS,
    PARALLEL_FROM_BYTES,
    HalfScan,
    SingleScan,
    scan_threads,
)

SIZES = st.integers(0, 1 << 40)
CORES = st.integers(1, 256)


@given(nbytes=SIZES, cores=CORES)
def test_a_scan_never_takes_more_than_half_the_cores(nbytes: int, cores: int) -> None:
    threads = scan_threads(nbytes, cores)
    assert 1 <= threads <= max(1, min(MAX_SCAN_THREADS, cores // 2))


@given(nbytes=st.integers(0, PARALLEL_FROM_BYTES - 1), cores=CORES)
def test_a_small_scan_runs_on_one_thread(nbytes: int, cores: int) -> None:
    assert scan_threads(nbytes, cores) == 1


@given(small=SIZES, extra=SIZES, cores=CORES)
def test_a_larger_scan_never_gets_fewer_threads(small: int, extra: int, cores: int) -> None:
    assert scan_threads(small + extra, cores) >= scan_threads(small, cores)


@given(nbytes=SIZES)
def test_a_two_core_machine_always_scans_on_one_thread(nbytes: int) -> None:
    assert scan_threads(nbytes, 2) == 1


def test_a_large_scan_on_many_cores_is_parallel() -> None:
    assert scan_threads(PARALLEL_FROM_BYTES, 16) == MAX_SCAN_THREADS
    assert scan_threads(PARALLEL_FROM_BYTES, 6) == 3


class RecordingSimd:
    """Stands in for SimSIMD: scores nothing, remembers the threads it was given."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    def cdist(self, query: Any, rows: Any, **options: Any) -> Any:
        self.threads.append(options["threads"])
        return np.zeros((1, rows.shape[0]), dtype=np.float32)


def _rows(count: int) -> Any:
    """``count`` float16 rows of 384 that take no memory (one row, broadcast)."""
    return np.broadcast_to(np.zeros((1, 384), dtype=np.float16), (count, 384))


@pytest.mark.parametrize(("count", "cores", "expected"), [(10_000, 8, 1), (200_000, 8, 4)])
def test_the_half_scan_asks_simsimd_for_the_policy_s_threads(
    count: int, cores: int, expected: int
) -> None:
    simd = RecordingSimd()
    HalfScan(SimpleNamespace(cdist=simd.cdist), cores=cores).scores(  # type: ignore[arg-type]
        _rows(count), np.ones(384, dtype=np.float32)
    )
    assert simd.threads == [expected]


def test_the_single_scan_scores_alike_on_one_thread_or_blas(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(7)
    rows = rng.standard_normal((3000, 64)).astype(np.float32)
    query = rng.standard_normal(64).astype(np.float32)
    alone = SingleScan(cores=2).scores(rows, query)
    monkeypatch.setattr(scan, "PARALLEL_FROM_BYTES", 0)
    parallel = SingleScan(cores=8).scores(rows, query)
    assert alone.dtype == parallel.dtype == np.float32
    np.testing.assert_allclose(alone, parallel, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(alone, rows.astype(np.float64) @ query, rtol=1e-4, atol=1e-4)
