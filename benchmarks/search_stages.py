"""Where a search's time goes: each store call of ``search_facts``, timed where it is awaited.

Prints figures; it is not a test. Builds an embedded store like ``benchmarks.scale`` (random
384-d unit vectors, precomputed query vectors, so the embedder costs nothing), then runs each
search mode over its own queries and prints the p50 of the whole search beside the p50 of
each call it awaits: the two rankings (run side by side in hybrid mode), the candidates'
origins, the winners' whole facts and the domain's fusion. What is left is the event loop,
the thread hops and the application's own Python.

    python -m benchmarks.search_stages                      # 10k facts, one user
    python -m benchmarks.search_stages --size 100000 --layout tenants
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.scale import (
    AGENT,
    LAYOUTS,
    NOW,
    VIEWER_USER,
    WORDS,
    PrecomputedEmbedder,
    build,
    unit_rows,
)
from benchmarks.scale import load as machine_load
from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.search import SearchMode
from eden_memory.application.search import retrieve as search_module
from eden_memory.application.service import MemoryService

TOP_K = 10
Timings = dict[str, list[float]]


def timed_async(owner: Any, name: str, into: Timings) -> None:
    """Replace ``owner.name`` (a coroutine function) by one that records its milliseconds."""
    inner: Callable[..., Awaitable[Any]] = getattr(owner, name)

    async def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await inner(*args, **kwargs)
        finally:
            into.setdefault(name, []).append((time.perf_counter() - started) * 1000)

    setattr(owner, name, call)


def timed_sync(owner: Any, name: str, into: Timings) -> None:
    inner: Callable[..., Any] = getattr(owner, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            into.setdefault(name, []).append((time.perf_counter() - started) * 1000)

    setattr(owner, name, call)


async def stages(path: Path, queries: int) -> None:
    rng = np.random.default_rng(5)
    embedder = PrecomputedEmbedder()
    texts = [f"q{i} " + " ".join(rng.choice(WORDS, size=3)) for i in range(3 * queries + 1)]
    for text, vector in zip(texts, unit_rows(rng, len(texts)), strict=True):
        embedder.vectors[text] = vector.tolist()
    async with await open_sqlite(path) as store:
        memory = MemoryService(store, embedder, ScriptedLLM([]), FakeClock(NOW))
        conv = memory.conversation(AGENT, "bench-session", [VIEWER_USER])
        await memory.search_facts(conv, [texts[-1]], TOP_K)  # loads the vectors
        calls: Timings = {}
        for name in ("semantic_ranking", "keyword_ranking"):
            timed_async(store.ranking, name, calls)
        for name in ("fact_origins", "get_facts"):
            timed_async(store.facts, name, calls)
        timed_sync(search_module, "fuse", calls)
        for m, mode in enumerate(SearchMode):
            calls.clear()
            whole: list[float] = []
            for text in texts[m * queries : (m + 1) * queries]:
                started = time.perf_counter()
                await memory.search_facts(conv, [text], TOP_K, mode=mode)
                whole.append((time.perf_counter() - started) * 1000)
            parts = "  ".join(f"{k} {statistics.median(v):.3f}" for k, v in calls.items())
            print(f"  {mode:<8} search p50 {statistics.median(whole):6.3f} ms | {parts}")
        await memory.wait_for_background()


async def run(size: int, layout: str, queries: int, folder: Path) -> None:
    label, owners = LAYOUTS[layout]
    path = folder / f"stages-{layout}-{size}.db"
    built = await build(path, owners, size, size)
    print(f"{size:,} facts, {label}: {len(built.visible):,} visible; {machine_load()}")
    await stages(path, queries)
    print(f"  after: {machine_load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--layout", choices=list(LAYOUTS), default="one-user")
    parser.add_argument("--queries", type=int, default=200, help="queries per search mode")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="eden-stages-") as folder:
        asyncio.run(run(args.size, args.layout, args.queries, Path(folder)))


if __name__ == "__main__":
    main()
