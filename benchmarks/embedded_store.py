"""Benchmark of the embedded (SQLite) store: search latency beside the numpy floor, ingest rate.

Prints figures; it is not a test. For each size, a fresh store on a temporary file gets that
many facts visible to one (agent, user) viewer, with random 384-d unit vectors:

* ingest: facts per second through ``add_facts`` in batches of 256 (vectors given, as an
  embedder returns them; building the ``Fact`` records is not timed);
* semantic search, limit 20: p50/p95 through the async port (thread hop, index sync check,
  ranking, reading the 20 facts), beside the *floor* -- ``M @ q`` plus ``argpartition`` on a
  numpy matrix of the same vectors -- measured in the same run, query by query, alternately;
* keyword search (FTS5, BM25) for three-word queries, and both searches of one query
  started together, as a hybrid search does (they run on separate threads);
* the first search, which loads the partitions into memory, and the bare thread hop.

Other processes on a shared machine disturb single measurements; the floor and the search
are measured alternately so that both see the same conditions.

    python benchmarks/embedded_store.py           # 10k and 100k facts
    python benchmarks/embedded_store.py --quick   # 2k and 10k facts
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores

DIM = 384
SPACE = EmbeddingSpace("bench-embedder", DIM)
LIMIT = 20
BATCH = 256
AGENT, USER = AgentId("bench-agent"), UserId("bench-user")
T0 = datetime(2026, 1, 1, tzinfo=UTC)
VIEWER = FactVisibility(AGENT, USER, frozenset({Scope.AGENT, Scope.USER}))
Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Figures:
    size: int
    ingest_per_s: float
    first_search_ms: float
    search_ms: list[float]
    floor_ms: list[float]
    keyword_ms: list[float]
    hybrid_ms: list[float]
    hop_ms: list[float]


def unit_vectors(rng: np.random.Generator, count: int) -> Matrix:
    vectors = rng.standard_normal((count, DIM), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def vocabulary(rng: np.random.Generator, size: int = 3000) -> list[str]:
    syllables = ["ka", "lo", "mi", "ten", "sor", "vi", "du", "ras", "pel", "no", "zu", "ib"]
    words = {"".join(rng.choice(syllables, size=3)) for _ in range(size * 3)}
    return sorted(words)[:size]


def make_facts(rng: np.random.Generator, words: list[str], count: int) -> list[Fact]:
    """One in five facts agent-scoped, the rest the viewer's user facts: all visible."""
    facts = []
    for i in range(count):
        user = None if i % 5 == 0 else USER
        text = " ".join(rng.choice(words, size=12))
        at = T0 + timedelta(seconds=i)
        facts.append(
            Fact(
                id=FactId(f"fact-{i}"),
                content=f"note {i} {text}",
                scope=Scope.USER if user else Scope.AGENT,
                agent_id=AGENT,
                user_id=user,
                formed_at=at,
                created_at=at,
                updated_at=at,
                embedding_model=SPACE.model,
                embedding_dim=SPACE.dimension,
            )
        )
    return facts


async def ingest(store: Stores, facts: list[Fact], vectors: Matrix) -> float:
    """Facts per second; vectors are handed over as lists of floats, as embedders return."""
    elapsed = 0.0
    for start in range(0, len(facts), BATCH):
        batch = vectors[start : start + BATCH].tolist()
        began = time.perf_counter()
        await store.facts.add_facts(facts[start : start + BATCH], batch)
        elapsed += time.perf_counter() - began
    return len(facts) / elapsed


def floor_search(matrix: Matrix, query: Matrix) -> None:
    scores = matrix @ query
    best = np.argpartition(-scores, LIMIT - 1)[:LIMIT]
    best[np.argsort(-scores[best])]


async def timed_ms(call: Callable[[], Awaitable[object]]) -> float:
    began = time.perf_counter()
    await call()
    return (time.perf_counter() - began) * 1000


def timed_sync_ms(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return (time.perf_counter() - began) * 1000


async def semantic_vs_floor(
    store: Stores, vectors: Matrix, probes: Matrix
) -> tuple[list[float], list[float]]:
    """Search and floor for each probe, alternately, so both see the same conditions."""
    search, floor = [], []
    for probe in probes:
        as_list = probe.tolist()
        floor.append(timed_sync_ms(lambda: floor_search(vectors, probe)))  # noqa: B023
        search.append(
            await timed_ms(
                lambda: store.ranking.semantic_ranking(as_list, VIEWER, LIMIT, space=SPACE)  # noqa: B023
            )
        )
    return search, floor


async def keyword_and_hybrid(
    store: Stores, probes: Matrix, texts: list[str]
) -> tuple[list[float], list[float]]:
    keyword, hybrid = [], []
    for probe, text in zip(probes, texts, strict=True):
        as_list = probe.tolist()

        async def both() -> None:
            await asyncio.gather(
                store.ranking.semantic_ranking(as_list, VIEWER, LIMIT, space=SPACE),  # noqa: B023
                store.ranking.keyword_ranking(text, VIEWER, LIMIT),  # noqa: B023
            )

        keyword.append(await timed_ms(lambda: store.ranking.keyword_ranking(text, VIEWER, LIMIT)))  # noqa: B023
        hybrid.append(await timed_ms(both))
    return keyword, hybrid


async def measure(size: int, queries: int, folder: Path) -> Figures:
    rng = np.random.default_rng(size)
    words = vocabulary(rng)
    vectors = unit_vectors(rng, size)
    facts = make_facts(rng, words, size)
    probes = unit_vectors(rng, queries)
    texts = [" ".join(rng.choice(words, size=3)) for _ in range(queries)]
    async with await open_sqlite(folder / f"bench-{size}.db") as store:
        rate = await ingest(store, facts, vectors)
        first = await timed_ms(
            lambda: store.ranking.semantic_ranking(probes[0].tolist(), VIEWER, LIMIT, space=SPACE)
        )
        search, floor = await semantic_vs_floor(store, vectors, probes)
        keyword, hybrid = await keyword_and_hybrid(store, probes, texts)
        hops = [await timed_ms(lambda: store.facts.get_facts([])) for _ in range(queries)]
    return Figures(size, rate, first, search, floor, keyword, hybrid, hops)


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def line(label: str, values: list[float]) -> str:
    return f"  {label:<17} p50 {p(values, 50):7.3f} ms   p95 {p(values, 95):7.3f} ms"


def report(f: Figures) -> None:
    ratio = p(f.search_ms, 50) / p(f.floor_ms, 50)
    print(f"\n{f.size:,} visible facts, {DIM}-d, limit {LIMIT}")
    print(f"  ingest (add_facts, batches of {BATCH}) {f.ingest_per_s:10,.0f} facts/s")
    print(f"  first search (loads the partitions)  {f.first_search_ms:10.2f} ms")
    print(line("semantic search", f.search_ms))
    print(line("numpy floor", f.floor_ms))
    print(f"  search / floor at p50: {ratio:.2f}x (target at 100k: <= 1.5x)")
    print(line("keyword search", f.keyword_ms))
    print(line("both at once", f.hybrid_ms))
    print(line("thread hop alone", f.hop_ms))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="2k and 10k facts instead")
    parser.add_argument("--queries", type=int, default=200, help="queries per measurement")
    args = parser.parse_args()
    sizes = (2_000, 10_000) if args.quick else (10_000, 100_000)
    with tempfile.TemporaryDirectory(prefix="eden-bench-") as folder:
        for size in sizes:
            report(asyncio.run(measure(size, args.queries, Path(folder))))


if __name__ == "__main__":
    main()
