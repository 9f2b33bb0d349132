"""Console page render times over an embedded store of 100,000 facts (issue 20, target <= 100 ms).

Prints figures; it is not a test. A fresh SQLite store gets ``--facts`` facts of one agent in
batches of 10,000 (random 384-d unit vectors; 1,000 users with equal shares of four fifths of
the facts, the rest agent-scoped), then blobs and buffered reflections for the agent, one
user and one session. The console app (guard, routes, templates: everything but the socket)
is driven in-process through httpx's ASGI transport, in the store's event loop, with the
session cookie a browser would hold. Each page is fetched ``--repeat`` times after two
warm-ups; p50, p95 and max are the wall time of the whole request.

The search page runs ``search_facts`` with ``debug`` (hybrid, top 10) as the viewed user,
whose visible set is that user's facts plus every agent fact; its query vector is a fixed
random one (a precomputed-vector embedder: the model is not measured). The deep facts page
starts 90% of the way down the agent's listing (keyset: it should cost what the first does).

    python -m benchmarks.console_pages                  # 100k facts
    python -m benchmarks.console_pages --facts 10000    # a quick run
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import httpx
import numpy as np

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.console.app import build_console
from eden_memory.adapters.console.guard import Guard
from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.ids import AgentId, FactId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import Fact, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.ports.embedder import Embeddings
from eden_memory.ports.stores import Stores

DIM, BATCH, USERS = 384, 10_000, 1_000
SPACE = EmbeddingSpace("bench-random", DIM)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
AGENT, USER, SESSION, TOKEN = "bench-agent", "u7", "s-u7", "bench-token"
WORDS = [f"{a}{b}{c}" for a in "bdfklmnprstvz" for b in "aeiou" for c in "lmnrstx"][:3000]
TARGET_MS = 100.0


class SeededEmbedder:
    """A fixed random unit vector per text: no model is measured."""

    @property
    def space(self) -> EmbeddingSpace:
        return SPACE

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        return Embeddings([self._vector(t) for t in texts])

    @staticmethod
    def _vector(text: str) -> list[float]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
        out: list[float] = (v / np.linalg.norm(v)).tolist()
        return out


def _owner(i: int) -> str | None:
    return None if i % 5 == 0 else f"u{i % USERS}"


def _fact(i: int, rng: np.random.Generator) -> Fact:
    at = NOW - timedelta(seconds=10 * (10_000_000 - i))
    user = _owner(i)
    return Fact(
        id=FactId(f"f{i}"),
        content=f"note {i} " + " ".join(rng.choice(WORDS, size=12)),
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=AgentId(AGENT),
        user_id=UserId(user) if user else None,
        source_session_id=SessionId(f"s-{user}") if user else None,
        formed_at=at,
        created_at=at,
        updated_at=at,
        embedding_model=SPACE.model,
        embedding_dim=DIM,
    )


async def build(store: Stores, total: int) -> float:
    rng, started = np.random.default_rng(20), time.perf_counter()
    for at in range(0, total, BATCH):
        count = min(BATCH, total - at)
        vectors = rng.standard_normal((count, DIM), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        await store.facts.add_facts(
            [_fact(i, rng) for i in range(at, at + count)], vectors.tolist()
        )
    keys = [ScopeKey.agent(AGENT), ScopeKey.user(AGENT, USER), ScopeKey.session(AGENT, SESSION)]
    reflections = [
        Reflection.in_scope(
            key,
            id=ReflectionId(f"r-{k}-{j}"),
            content=f"reflection {j} about " + " ".join(rng.choice(WORDS, size=8)),
            formed_at=NOW - timedelta(hours=j),
            created_at=NOW - timedelta(hours=j),
        )
        for k, key in enumerate(keys)
        for j in range(3)
    ]
    await store.buffers.add_reflections(reflections)
    return time.perf_counter() - started


def pages(total: int) -> dict[str, str]:
    deep = int(total * 0.1)  # the listing is newest first: fact f<deep> is 90% down
    at = NOW - timedelta(seconds=10 * (10_000_000 - deep))
    cursor = quote(f"{at.isoformat()}~f{deep}")
    a = f"agent={AGENT}"
    return {
        "agent overview": f"/agent?{a}",
        "user": f"/user?{a}&user={USER}",
        "session": f"/session?{a}&session={SESSION}",
        "facts, first page (50)": f"/facts?{a}",
        "facts, 90% deep (keyset)": f"/facts?{a}&after={cursor}",
        "facts of one user": f"/facts?{a}&user={USER}",
        "one fact": f"/fact?{a}&id=f{total - 1}",
        "search (debug, hybrid)": f"/search?{a}&user={USER}&q=note+{WORDS[7]}+{WORDS[99]}",
        "context XML": f"/context?{a}&user={USER}&session={SESSION}",
        "blob": f"/blob?{a}&scope=user&user={USER}",
    }


async def measure(service: MemoryService, total: int, repeat: int) -> list[tuple[str, list[float]]]:
    app = build_console(ConsoleMemory(service, [AGENT]), Guard(TOKEN))
    for key, text in [
        (ScopeKey.agent(AGENT), "The agent's memory."),
        (ScopeKey.user(AGENT, USER), "u7's memory."),
    ]:
        seen = await service.admin.get_consolidated(key)
        await service.admin.replace_consolidated(key, text, expected_version=seen.version)
    transport = httpx.ASGITransport(app=app)
    out = []
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        assert (await client.get(f"/?token={TOKEN}")).status_code == 303
        for name, path in pages(total).items():
            times = []
            for i in range(repeat + 2):
                started = time.perf_counter()
                answer = await client.get(path)
                elapsed = (time.perf_counter() - started) * 1000
                assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
                if i >= 2:
                    times.append(elapsed)
            out.append((name, times))
    return out


def report(total: int, build_s: float, rows: list[tuple[str, list[float]]]) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"console pages over {total:,} facts (store built in {build_s:.1f} s), ms per request")
    print(f"{os.cpu_count()} cores, load average {load} (1, 5, 15 min) at the end of the run")
    print(f"{'page':<28} {'p50':>8} {'p95':>8} {'max':>8}  <= {TARGET_MS:.0f} ms at p95")
    for name, times in rows:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        verdict = "yes" if p95 <= TARGET_MS else "NO"
        print(f"{name:<28} {statistics.median(times):8.1f} {p95:8.1f} {max(times):8.1f}  {verdict}")


async def run(total: int, repeat: int, folder: Path) -> None:
    async with await open_sqlite(folder / "console-bench.db") as store:
        build_s = await build(store, total)
        service = MemoryService(store, SeededEmbedder(), ScriptedLLM(), FakeClock(NOW))
        rows = await measure(service, total, repeat)
    report(total, build_s, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.facts, args.repeat, Path(folder)))


if __name__ == "__main__":
    main()
