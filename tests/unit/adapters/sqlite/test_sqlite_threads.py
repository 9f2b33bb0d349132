"""How many threads a vector scan takes: one for small scans, never more than half the cores.

No test depends on this machine's CPU: the cores are given, and SimSIMD is replaced by a fake
that records the threads it is asked for.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.vectors import scan
from eden_memory.adapters.stores.sqlite.vectors.scan import (
    MAX_SCAN_THREADS,
    PARALLEL_FROM_BYTES,
    HalfScan,
    SingleScan,
    scan_threads,
)
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope

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


async def test_the_threads_follow_the_whole_search_not_each_partition(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's partition and the agent's: the threads of each scan are decided by the bytes
    of both (a 61 MB user partition beside a 15 MB agent one ran on one thread each)."""
    store = await open_sqlite(tmp_path / "m.db", vector_precision="single")
    async with store:
        await store.facts.add_facts(
            [_fact("a1", None), _fact("a2", None), _fact("u1", U), _fact("u2", U)],
            [[1.0, 0.0, 0.0]] * 4,
        )
        asked: list[int] = []

        def threads(nbytes: int, cores: int) -> int:
            asked.append(nbytes)
            return 1

        monkeypatch.setattr(scan, "scan_threads", threads)
        viewer = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))
        hits = await store.ranking.semantic_ranking([1.0, 0.0, 0.0], viewer, 10, space=SPACE)
        assert len(hits) == 4
        assert asked == [4 * 3 * 4, 4 * 3 * 4]  # each partition's scan: the search's 48 bytes


T0 = datetime(2026, 2, 1, tzinfo=UTC)
A, U = AgentId("agent"), UserId("user")
SPACE = EmbeddingSpace("m", 3)


def _fact(name: str, user: UserId | None) -> Fact:
    return Fact(
        id=FactId(name),
        content=f"fact {name}",
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=A,
        user_id=user,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model=SPACE.model,
        embedding_dim=SPACE.dimension,
    )
