"""Half-precision vector scans: the error bound holds, a kernel that adds in half precision
fails the check, and the store's rankings equal an exact float32 scan's even where float16
cannot tell rows apart. Switching SimSIMD's kernels: ``test_sqlite_half_kernels``."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.vectors import scan
from eden_memory.adapters.stores.sqlite.vectors.scan import HalfScan, SingleScan, choose, sound
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import MissingExtraError
from eden_memory.domain.ids import AgentId
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.sqlite.test_sqlite_vector_index import fact

A = AgentId("agent")
VIEWER = FactVisibility(A, None, frozenset({Scope.AGENT}))


def half() -> HalfScan:
    found = scan.half_scan()
    assert found is not None, "simsimd is a dev dependency: its scan must load and be sound"
    return found


def unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return (matrix / np.where(norms > 0, norms, 1)).astype(np.float32)


def test_auto_picks_half_precision_where_simsimd_is_installed() -> None:
    assert isinstance(choose("auto"), HalfScan)
    assert isinstance(choose("single"), SingleScan)


@settings(max_examples=60, deadline=None)
@given(
    dim=st.sampled_from([2, 3, 8, 384, 1536, 3072]),
    seed=st.integers(0, 2**32 - 1),
    spread=st.sampled_from([1.0, 1e-3, 1e-6]),
)
def test_half_scores_stay_within_the_bound(dim: int, seed: int, spread: float) -> None:
    rng = np.random.default_rng(seed)
    # Rows near one direction (spread small) or anywhere; components of every magnitude.
    base = rng.standard_normal(dim)
    rows = unit(base + spread * rng.standard_normal((64, dim)) * rng.uniform(0, 3, (64, dim)))
    query = unit(base + rng.standard_normal(dim))
    exact = rows.astype(np.float64) @ query.astype(np.float64)
    kernel = half()
    approx = kernel.scores(rows.astype(np.float16), query).astype(np.float64)
    assert np.abs(approx - exact).max() <= kernel.error(dim)


def test_a_kernel_that_adds_in_half_precision_is_refused() -> None:
    class HalfAdder:
        dtype = np.float16

        def scores(self, rows: np.ndarray, query: np.ndarray, search_bytes: int = 0) -> np.ndarray:
            total = np.zeros(len(rows), dtype=np.float16)
            for j in range(rows.shape[1]):
                total = (total + rows[:, j] * np.float16(query[j])).astype(np.float16)
            return total.astype(np.float32)

        def error(self, dim: int) -> float:
            return 0.0

    assert not sound(HalfAdder())
    assert sound(SingleScan())
    assert sound(half())


def test_asking_for_half_precision_without_simsimd_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.import_module

    def without_simsimd(name: str, package: str | None = None) -> object:
        if name == "simsimd":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(scan, "import_module", without_simsimd)
    with pytest.raises(MissingExtraError, match="simsimd"):
        choose("half")
    assert isinstance(choose("auto"), SingleScan)


SPACE16 = EmbeddingSpace("m", 16)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 120),
    limit=st.integers(1, 30),
    gap=st.sampled_from([1e-2, 1e-4, 1e-6, 0.0]),
)
async def test_half_precision_ranks_exactly_like_single_precision(
    tmp_path_factory: pytest.TempPathFactory, seed: int, count: int, limit: int, gap: float
) -> None:
    """Near-ties float16 cannot separate (gap far below its step) must still come out in
    float32 order, with float32 scores."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal(16)
    vectors = base + gap * rng.standard_normal((count, 16))
    vectors[: count // 3] = rng.standard_normal((count // 3, 16))  # some far away
    query = (base + 0.1 * rng.standard_normal(16)).tolist()
    path = tmp_path_factory.mktemp("scan") / "memory.db"
    async with (
        await open_sqlite(path, vector_precision="half") as halved,
        await open_sqlite(path, vector_precision="single") as single,
    ):
        await halved.facts.add_facts(
            [fact(f"f{n}", None, SPACE16) for n in range(count)], vectors.tolist()
        )
        got = await halved.ranking.semantic_ranking(query, VIEWER, limit, space=SPACE16)
        every = await single.ranking.semantic_ranking(query, VIEWER, count, space=SPACE16)
    # The best ``limit`` float32 scores, each reported for a fact that has it (among tied
    # facts, either may come first), every fact once.
    assert [r.score for r in got] == pytest.approx([r.score for r in every[:limit]], abs=1e-6)
    true = {r.id: r.score for r in every}
    assert [true[r.id] for r in got] == pytest.approx([r.score for r in got], abs=1e-6)
    assert len({r.id for r in got}) == len(got)


FORK_AFTER_SEARCH = """
import asyncio, os, sys
import numpy as np
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.vectors import scan
from tests.unit.adapters.sqlite.test_sqlite_scan import SPACE16, VIEWER, fact

scan.scan_threads = lambda nbytes, cores: 2  # small scans run alone: force OpenMP's pool

query = [1.0] * 16

async def search(path, fill=False):
    async with await open_sqlite(path, vector_precision="half") as store:
        if fill:
            vectors = np.random.default_rng(1).standard_normal((20000, 16)).tolist()
            facts = [fact(f"f{n}", None, SPACE16) for n in range(20000)]
            await store.facts.add_facts(facts, vectors)
        return len(await store.ranking.semantic_ranking(query, VIEWER, 5, space=SPACE16))

path = sys.argv[1]
assert asyncio.run(search(path, fill=True)) == 5  # the parent's scan starts its threads
child = os.fork()
if child == 0:
    os._exit(0 if asyncio.run(search(path)) == 5 else 1)
_, status = os.waitpid(child, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


FORK_AFTER_SCAN = """
import os, sys
import numpy as np
from eden_memory.adapters.stores.sqlite.vectors import scan as scan_module
from eden_memory.adapters.stores.sqlite.vectors.scan import half_scan

scan_module.scan_threads = lambda nbytes, cores: 2  # small scans run alone: force the pool

scan = half_scan()
rows = np.random.default_rng(1).standard_normal((5000, 384)).astype(np.float16)
query = np.ones(384, dtype=np.float32) / np.sqrt(384)
scan.scores(rows, query)  # this thread starts OpenMP's pool
child = os.fork()
if child == 0:
    os._exit(0 if len(scan.scores(rows, query)) == 5000 else 1)
_, status = os.waitpid(child, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.parametrize("script", [FORK_AFTER_SEARCH, FORK_AFTER_SCAN], ids=["store", "scan"])
def test_a_process_forked_after_a_search_can_search(tmp_path: Path, script: str) -> None:
    """A thread that started OpenMP's pool, forked, and asked it for threads would hang."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "memory.db")],
        cwd=Path(__file__).resolve().parents[4],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
