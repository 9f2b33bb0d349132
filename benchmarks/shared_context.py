"""Benchmark of the context cache's hit rate across two worker processes on one SQLite file.

Prints figures; it is not a test.

Two real processes open the same store file, as two workers behind a load balancer do.
One agent has a typical memory (a 250-word blob, three buffered reflections, 40 recent
agent facts); ``--sessions`` sessions, each with its own user, send ``--prompts`` prompts
spread evenly over a simulated hour, each session's prompts to either worker at random.
After ``--write-share`` of the prompts the worker that served it adds a fact for that user
(what a formation does after a turn); every ten simulated minutes one worker adds an agent
fact (every session's context changes). The parent sends each request in turn and waits
for its answer, so both runs see the same sequence; the workers set a fake clock to the
request's time. Each answer is checked against the last fact written for its user and for
the agent: a context missing one is counted as stale.

Twice: the shared level off (``cache_shared=False``: each process caches for itself, as the
previous release did) and on (a context is kept with its session in the file).

    python -m benchmarks.shared_context
    python -m benchmarks.shared_context --sessions 50 --prompts 1000   # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.service import MemoryService
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import ContextSettings, MemorySettings
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
AGENT = AgentMemoryConfig("bench-agent")
AGENT_WRITE_EVERY = timedelta(minutes=10)


@dataclass(frozen=True)
class Step:
    """One request: a prompt, or a prompt followed by a write."""

    at: datetime
    worker: int
    session: int
    user_fact: str | None  # added by the serving worker after the prompt
    agent_fact: str | None  # added by the serving worker before the prompt


def schedule(sessions: int, prompts: int, write_share: float, seed: int) -> list[Step]:
    rng = random.Random(seed)
    every = timedelta(hours=1) / prompts
    steps, next_agent_write = [], START + AGENT_WRITE_EVERY
    for i in range(prompts):
        at = START + every * (i + 1)
        agent_fact = None
        if at >= next_agent_write:
            agent_fact, next_agent_write = f"Agent note {i}", next_agent_write + AGENT_WRITE_EVERY
        user_fact = f"User note {i}" if rng.random() < write_share else None
        steps.append(Step(at, rng.randrange(2), rng.randrange(sessions), user_fact, agent_fact))
    return steps


def fact(content: str, at: datetime, user: str | None = None) -> dict[str, Any]:
    item = {"content": content, "agent_id": AGENT.agent_id, "formed_at": at}
    return item | ({"scope": "agent"} if user is None else {"scope": "user", "user_id": user})


async def seed(path: Path) -> None:
    """The agent's memory: a blob, buffered reflections and 40 recent agent facts."""
    stores = await open_sqlite(path)
    memory = MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), FakeClock(START))
    key = ScopeKey.agent(AGENT.agent_id)
    blob = "- " + " ".join(["policy"] * 250)
    await memory.admin.replace_consolidated(key, blob, expected_version=0)
    notes = [
        Reflection.in_scope(
            key, id=f"n{i}", content=f"a note {i}", formed_at=START, created_at=START
        )
        for i in range(3)
    ]
    await stores.buffers.add_reflections(notes)
    facts = [
        fact(f"Event {i} holds {100 + i} guests", START - timedelta(minutes=i)) for i in range(40)
    ]
    await memory.admin.add_facts(facts)
    await stores.close()


def worker(path: Path, shared: bool, conn: Connection) -> None:
    asyncio.run(serve(path, shared, conn))


async def serve(path: Path, shared: bool, conn: Connection) -> None:
    """Answer the parent's requests in turn: (kind, hit level, xml, seconds)."""
    stores = await open_sqlite(path)
    clock = FakeClock(START)
    settings = MemorySettings(context=ContextSettings(cache_shared=shared))
    memory = MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), clock, settings)
    while (step := conn.recv()) is not None:
        clock.set(step.at)
        user = f"user-{step.session}"
        if step.agent_fact:
            await memory.admin.add_facts([fact(step.agent_fact, step.at)])
        conv = memory.conversation(AGENT, f"session-{step.session}", [user])
        started = time.perf_counter()
        context = await memory.get_context(conv)
        spent = time.perf_counter() - started
        await memory.wait_for_background()  # the copy saved after the answer, untimed
        if step.user_fact:
            await memory.admin.add_facts([fact(step.user_fact, step.at, user)])
        conn.send((context.cached_in or "built", context.xml, spent))
    await stores.close()


def run(steps: list[Step], shared: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        asyncio.run(seed(path))
        spawn = mp.get_context("spawn")
        pipes = [spawn.Pipe() for _ in range(2)]
        procs = [spawn.Process(target=worker, args=(path, shared, child)) for _, child in pipes]
        for p in procs:
            p.start()
        levels: Counter[str] = Counter()
        stale, spent = 0, {"built": 0.0, "process": 0.0, "store": 0.0}
        last_user: dict[int, str] = {}
        last_agent = None
        for step in steps:
            parent = pipes[step.worker][0]
            parent.send(step)
            level, xml, seconds = parent.recv()
            levels[level] += 1
            spent[level] += seconds
            last_agent = step.agent_fact or last_agent
            expected = [last_user.get(step.session), last_agent]
            stale += any(e is not None and e not in xml for e in expected)
            if step.user_fact:
                last_user[step.session] = step.user_fact
        for parent, _ in pipes:
            parent.send(None)
        for p in procs:
            p.join()
    report(shared, levels, stale, spent, len(steps))


def report(shared: bool, levels: Counter[str], stale: int, spent: dict[str, float], n: int) -> None:
    hits = levels["process"] + levels["store"]
    title = "shared (kept with the session)" if shared else "per process (shared level off)"
    print(f"{title}: hit rate {hits / n:.1%} ({hits:,} of {n:,} prompts)")
    for level in ("process", "store", "built"):
        count = levels[level]
        ms = 1000 * spent[level] / count if count else 0.0
        print(f"  {level:8} {count:6,} prompts  {ms:6.2f} ms each (get_context)")
    print(f"  stale contexts served: {stale}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--prompts", type=int, default=3000)
    parser.add_argument("--write-share", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    steps = schedule(args.sessions, args.prompts, args.write_share, args.seed)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{args.sessions} sessions, {args.prompts:,} prompts over one simulated hour, two worker "
        f"processes, {args.write_share:.0%} of prompts followed by a user fact, an agent fact "
        f"every 10 min; load average {load} on {os.cpu_count()} cores"
    )
    for shared in (False, True):
        run(steps, shared)


if __name__ == "__main__":
    main()
