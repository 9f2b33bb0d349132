"""Search in the process that filled the store, then after closing and reopening it.

Prints figures; it is not a test. A server, or an agent that ingests and then searches, holds
a store it has never closed: SQLite's planner statistics (``sqlite_stat1``) are written at
close (``PRAGMA optimize``), so that process plans every statement without them. This fills a
fresh store in batches of 10,000 (random 384-d unit vectors, as ``benchmarks.scale``), searches
it in each mode without closing it, then closes, reopens and searches again, and prints both
p50s and their ratio beside the machine's load. The query embedding is excluded (precomputed
vectors). A ratio near 1 means the plans did not depend on the statistics.

    python -m benchmarks.unclosed_store                       # 100k facts, one user
    python -m benchmarks.unclosed_store --size 20000 --layout tenants
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import cast

import numpy as np

from benchmarks.scale import (
    AGENT,
    BUILD_BATCH,
    LAYOUTS,
    NOW,
    VIEWER_USER,
    WORDS,
    PrecomputedEmbedder,
    make_fact,
    sentence,
    unit_rows,
)
from benchmarks.scale import load as machine_load
from benchmarks.scale_floors import TOP_K
from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.search import SearchMode
from eden_memory.application.service import MemoryService
from eden_memory.ports.stores import Stores, Vector


async def fill(store: Stores, layout: str, size: int) -> None:
    """``size`` facts through ``add_facts``, the store left open."""
    owners = LAYOUTS[layout][1]
    rng = np.random.default_rng(size)
    for at in range(0, size, BUILD_BATCH):
        count = min(BUILD_BATCH, size - at)
        batch = [make_fact(i, sentence(rng, i), owners(i)) for i in range(at, at + count)]
        await store.facts.add_facts(batch, cast("list[Vector]", list(unit_rows(rng, count))))


async def p50s(store: Stores, embedder: PrecomputedEmbedder, texts: list[str]) -> list[float]:
    """Each mode's p50 in ms over its own share of ``texts`` (after one search to warm up)."""
    memory = MemoryService(store, embedder, ScriptedLLM([]), FakeClock(NOW))
    conv = memory.conversation(AGENT, "bench-session", [VIEWER_USER])
    await memory.search_facts(conv, [texts[-1]], TOP_K)  # loads the vectors
    share = len(texts) // len(SearchMode)
    out: list[float] = []
    for m, mode in enumerate(SearchMode):
        times: list[float] = []
        for text in texts[m * share : (m + 1) * share]:
            started = time.perf_counter()
            await memory.search_facts(conv, [text], TOP_K, mode=mode)
            times.append((time.perf_counter() - started) * 1000)
        out.append(statistics.median(times))
    await memory.wait_for_background()
    return out


def queries(embedder: PrecomputedEmbedder, count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    texts = [f"q{seed}-{i} " + " ".join(rng.choice(WORDS, size=3)) for i in range(count + 1)]
    for text, vector in zip(texts, unit_rows(rng, len(texts)), strict=True):
        embedder.vectors[text] = vector.tolist()
    return texts


async def run(size: int, layout: str, count: int, path: Path) -> None:
    embedder = PrecomputedEmbedder()
    store = await open_sqlite(path)
    try:
        started = time.perf_counter()
        await fill(store, layout, size)
        took = time.perf_counter() - started
        print(f"{size:,} facts, {LAYOUTS[layout][0]}: filled in {took:.1f} s")
        unclosed = await p50s(store, embedder, queries(embedder, count * len(SearchMode), 1))
        print(f"  never closed: {machine_load()}")
    finally:
        await store.close()
    async with await open_sqlite(path) as store:
        reopened = await p50s(store, embedder, queries(embedder, count * len(SearchMode), 2))
    print(f"  reopened:     {machine_load()}")
    for mode, first, second in zip(SearchMode, unclosed, reopened, strict=True):
        print(
            f"  {mode:<8} p50 never closed {first:7.2f} ms | reopened {second:7.2f} ms"
            f" | ratio {first / second:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--layout", choices=list(LAYOUTS), default="one-user")
    parser.add_argument("--queries", type=int, default=100, help="queries per search mode")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="eden-unclosed-") as folder:
        asyncio.run(run(args.size, args.layout, args.queries, Path(folder) / "memory.db"))


if __name__ == "__main__":
    main()
