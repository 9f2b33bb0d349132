"""Benchmark of the context cache's memory while a process serves many sessions.

Prints figures; it is not a test.

One agent with a realistic memory (a 250-word consolidated blob, three buffered reflections
and 40 recent facts, so each context is a few kB of XML) serves one prompt in each of many
new sessions, each with its own user, spread evenly over a simulated hour (a fake clock; no
sleeping). Every five simulated minutes it prints the contexts the cache holds and the
Python heap as ``tracemalloc`` sees it (after a garbage collection), above the heap measured
before the first prompt. The in-memory store is used so that nothing but the service
allocates: ``get_context`` only reads, so the store does not grow (the shared level, which
keeps contexts in the store for other workers, is off: ``benchmarks/shared_context.py``
measures it).

Three runs by default:

* 20,000 sessions in the hour with the default settings (TTL 5 min, at most 1,024 entries):
  more sessions per TTL than the bound, so the size bound holds the cache;
* 2,000 sessions in the hour with the default settings: the TTL holds it (about 167);
* 20,000 sessions with the bound lifted (10**9 entries, TTL one hour): what a cache without
  eviction does — every session stays, as the unbounded cache of the previous release did.

    python -m benchmarks.context_cache            # the three runs
    python -m benchmarks.context_cache --quick    # a tenth of the sessions
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
import tracemalloc
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from eden_memory.application.service import MemoryService
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import ContextSettings, MemorySettings
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
AGENT = AgentMemoryConfig("bench-agent")
REPORT_EVERY = timedelta(minutes=5)


@dataclass(frozen=True)
class Run:
    title: str
    sessions: int
    settings: MemorySettings


async def remembering(settings: MemorySettings, clock: FakeClock) -> MemoryService:
    """A service whose agent already has a blob, buffered reflections and 40 recent facts."""
    stores = memory_stores()
    memory = MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), clock, settings)
    key = ScopeKey.agent(AGENT.agent_id)
    blob = "- " + " ".join(["policy"] * 250)
    await memory.admin.replace_consolidated(key, blob, expected_version=0)  # a new store
    notes = [
        Reflection.in_scope(
            key, id=f"note-{i}", content=f"a recent note {i}", formed_at=START, created_at=START
        )
        for i in range(3)
    ]
    await stores.buffers.add_reflections(notes)
    facts = [
        {
            "content": f"The venue of event {i} holds {100 + i} guests",
            "scope": "agent",
            "agent_id": AGENT.agent_id,
            "formed_at": START - timedelta(minutes=i),
        }
        for i in range(40)
    ]
    await memory.admin.add_facts(facts)
    return memory


def heap_mb() -> float:
    gc.collect()
    current, _ = tracemalloc.get_traced_memory()
    return current / 1e6


async def serve(run: Run) -> None:
    clock = FakeClock(START)
    memory = await remembering(run.settings, clock)
    cache = memory._context.cache
    every = timedelta(hours=1) / run.sessions
    base = heap_mb()
    tracemalloc.reset_peak()
    c = run.settings.context
    print(
        f"{run.title}: {run.sessions:,} sessions over one simulated hour, "
        f"TTL {c.cache_ttl_seconds:.0f} s, max entries {c.cache_max_entries:,}; "
        f"heap before serving {base:.2f} MB"
    )
    started, next_report = time.perf_counter(), START + REPORT_EVERY
    for i in range(run.sessions):
        clock.advance(seconds=every.total_seconds())
        conv = memory.conversation(AGENT, f"session-{i}", [f"user-{i}"])
        await memory.get_context(conv)
        if clock.now() >= next_report - timedelta(microseconds=1):
            next_report += REPORT_EVERY
            minutes = (clock.now() - START) / timedelta(minutes=1)
            held = heap_mb() - base
            per = f"{held * 1e6 / len(cache):6.0f} B/entry" if len(cache) else ""
            print(
                f"  t+{minutes:3.0f} min | sessions {i + 1:6,} | entries held {len(cache):6,} | "
                f"heap above start {held:6.2f} MB {per}"
            )
    _, peak = tracemalloc.get_traced_memory()
    print(
        f"  peak heap above start {peak / 1e6 - base:.2f} MB; "
        f"{1000 * (time.perf_counter() - started) / run.sessions:.2f} ms per prompt "
        "(tracemalloc on)"
    )


async def main(quick: bool) -> None:
    scale = 10 if quick else 1
    lifted = MemorySettings(
        context=ContextSettings(
            cache_ttl_seconds=3600.0, cache_max_entries=10**9, cache_shared=False
        )
    )
    default = MemorySettings(context=ContextSettings(cache_shared=False))
    runs = [
        Run("default settings", 20_000 // scale, default),
        Run("default settings", 2_000 // scale, default),
        Run("no bound (reference)", 20_000 // scale, lifted),
    ]
    tracemalloc.start()
    for run in runs:
        await serve(run)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    asyncio.run(main(parser.parse_args().quick))
