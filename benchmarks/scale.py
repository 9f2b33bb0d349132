"""The embedded store at 10k, 100k and 1M facts: costs beside the fastest floor, in one process.

Prints figures; it is not a test. For each layout and size a fresh store is built in batches
of 10,000 through ``stores.facts.add_facts`` (random 384-d unit vectors; one fact in five
agent-scoped; the build's time is printed on its own line), then:

* ``search_facts`` p50/p95 through ``MemoryService`` (top_k 10), semantic, keyword and
  hybrid, each mode its own random queries, query embedding excluded (a precomputed-vector
  embedder), as ratios to the fastest exact top 10 over exactly the vectors the viewer may
  see (``scale_floors``: float32 BLAS, float32 on one thread, SimSIMD float16 on one thread
  and on every core), measured in the same process in alternating blocks; the fastest
  floor over all the store's vectors is printed beside it;
* ingest facts/s through ``MemoryService.add_facts`` (validation, the hash lookup, the
  store write; the embedder returns precomputed vectors) for calls of 1, 100 and 10,000
  facts, into the store of that size (another user's facts, so the viewer's set is fixed);
  one-user layout only;
* in a fresh process: opening the store and running its first search (warm page cache: the
  file was just written; the writes made the vector logs, no search ran before), and the
  resident memory that process gained by it;
* bytes on disk per fact (the file and its WAL after closing; the vector chunks in it);
* the machine's load (1, 5 and 15 minutes) and cores, at the start and after each store.

Layouts (``--layout``): ``one-user``, the rest of the facts the viewer's (every fact
visible); ``tenants``, the rest spread over 1,000 users (at 100k the viewer sees 20,080).

    python -m benchmarks.scale                                   # 10k and 100k, both layouts
    python -m benchmarks.scale --sizes 1000000 --layout tenants  # 1M (builds for minutes)
    python -m benchmarks.scale --sizes 10000 --layout one-user --queries 30 --no-ingest
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

import numpy as np

from benchmarks.scale_floors import CORES, TOP_K, Floors, Matrix, fastest
from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.conversation import Conversation
from eden_memory.application.search import SearchMode
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import AgentMemoryConfig, FactVisibility, Scope
from eden_memory.ports.embedder import Embeddings
from eden_memory.ports.stores import Vector

DIM = 384
SPACE = EmbeddingSpace("bench-random", DIM)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
AGENT = AgentMemoryConfig("bench-agent")
VIEWER_USER = "u0"
BUILD_BATCH = 10_000
BLOCK = 25
TENANTS = 1_000
# An array, not a list: ``rng.choice`` would convert a list on every call (~0.1 ms a fact).
WORDS = np.array([f"{a}{b}{c}" for a in "bdfklmnprstvz" for b in "aeiou" for c in "lmnrstx"])
INGEST_PLAN = {1: 200, 100: 2_000, 10_000: 10_000}  # facts per call: facts added that way


class PrecomputedEmbedder:
    """Vectors registered before timing starts: the model is not measured."""

    def __init__(self) -> None:
        self.vectors: dict[str, list[float]] = {}

    @property
    def space(self) -> EmbeddingSpace:
        return SPACE

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        return Embeddings([self.vectors.get(t) or self._seeded(t) for t in texts])

    @staticmethod
    def _seeded(text: str) -> list[float]:
        """Texts not registered (the calibration's, once, before timing): a stable vector."""
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        vector: list[float] = unit_rows(np.random.default_rng(seed), 1)[0].tolist()
        return vector


def unit_rows(rng: np.random.Generator, n: int) -> Matrix:
    m = rng.standard_normal((n, DIM), dtype=np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return m


def sentence(rng: np.random.Generator, i: int) -> str:
    return f"note {i} " + " ".join(rng.choice(WORDS, size=12))


def make_fact(i: int, text: str, user: str | None) -> Fact:
    at = NOW - timedelta(seconds=10_000_000 - i)
    return Fact(
        id=FactId(f"f{i}"),
        content=text,
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=AgentId(AGENT.agent_id),
        user_id=UserId(user) if user else None,
        formed_at=at,
        created_at=at,
        updated_at=at,
        embedding_model=SPACE.model,
        embedding_dim=DIM,
    )


@dataclass
class Built:
    path: Path
    facts: int
    build_s: float
    visible: Matrix  # the viewer's vectors, float32, in no particular order
    every: Matrix  # all the store's vectors
    store_s: float = 0.0  # of build_s, the time inside ``add_facts`` (not making the facts)


async def build(path: Path, owners: Callable[[int], str | None], total: int, seed: int) -> Built:
    """``total`` facts; ``owners(i)`` is fact i's user (None: agent). Visible: agent and u0."""
    rng = np.random.default_rng(seed)
    visible: list[Matrix] = []
    every: list[Matrix] = []
    in_store = 0.0
    started = time.perf_counter()
    async with await open_sqlite(path) as store:
        for at in range(0, total, BUILD_BATCH):
            count = min(BUILD_BATCH, total - at)
            vectors = unit_rows(rng, count)
            users = [owners(i) for i in range(at, at + count)]
            batch = [
                make_fact(i, sentence(rng, i), u)
                for i, u in zip(range(at, at + count), users, strict=True)
            ]
            # The rows as they are: a float32 row is a sequence of floats to the store, and
            # turning 10,000 x 384 of them into Python floats first would be the harness's cost.
            rows = cast("list[Vector]", list(vectors))
            writing = time.perf_counter()
            await store.facts.add_facts(batch, rows)
            in_store += time.perf_counter() - writing
            seen = np.array([u in (None, VIEWER_USER) for u in users])
            visible.append(vectors[seen])
            every.append(vectors)
    elapsed = time.perf_counter() - started
    shown = np.concatenate(visible)
    whole = shown if len(shown) == total else np.concatenate(every)
    return Built(path, total, elapsed, shown, whole, store_s=in_store)


def ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


async def searches(
    memory: MemoryService, conv: Conversation, texts: list[str], probes: Matrix, built: Built
) -> dict[str, list[float]]:
    """Each search mode and every floor, in alternating blocks of the queries.

    Each mode searches its own third of ``texts`` (a mode repeating another's queries would
    find their facts already parsed in the reader's cache); the floors run on the first
    third's vectors. Floors over the visible vectors are keyed ``visible/``, over all of
    them ``all/`` (the same matrix in the one-user layout: timed once)."""
    shown = Floors(built.visible)
    whole = shown if built.every is built.visible else Floors(built.every)
    times: dict[str, list[float]] = {k: [] for k in SearchMode}
    count = len(texts) // len(SearchMode)
    for at in range(0, count, BLOCK):
        for probe in probes[at : min(at + BLOCK, count)]:
            shown.time_all(probe, times, "visible/")
            if whole is not shown:
                whole.time_all(probe, times, "all/")
        for m, mode in enumerate(SearchMode):
            for text in texts[m * count + at : m * count + min(at + BLOCK, count)]:
                started = time.perf_counter()
                await memory.search_facts(conv, [text], TOP_K, mode=mode)
                times[mode].append(ms_since(started))
    return times


async def ingest_rates(
    memory: MemoryService, embedder: PrecomputedEmbedder, size: int
) -> dict[int, float]:
    """Facts/s of ``add_facts`` calls of 1, 100 and 10,000 facts (another user's)."""
    rng = np.random.default_rng(size + 1)
    rates: dict[int, float] = {}
    start = 20_000_000
    for per_call, total in INGEST_PLAN.items():
        texts = [f"other {start + i} " + " ".join(rng.choice(WORDS, size=12)) for i in range(total)]
        for text, vector in zip(texts, unit_rows(rng, total).tolist(), strict=True):
            embedder.vectors[text] = vector
        items = [
            {
                "content": t,
                "agent_id": AGENT.agent_id,
                "user_id": "tenant-x",
                "formed_at": NOW.isoformat(),
            }
            for t in texts
        ]
        started = time.perf_counter()
        for at in range(0, total, per_call):
            await memory.admin.add_facts(items[at : at + per_call], batch_size=min(per_call, 2048))
        rates[per_call] = total / (time.perf_counter() - started)
        start += total
    return rates


def first_open(path: Path) -> dict[str, float]:
    """Open and first search in a fresh process (``--first-search``), as a server starts."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.scale", "--first-search", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def open_and_search(path: Path) -> dict[str, float]:
    before = rss_mb()
    started = time.perf_counter()
    async with await open_sqlite(path) as store:
        viewer = FactVisibility(
            AgentId(AGENT.agent_id), UserId(VIEWER_USER), frozenset({Scope.AGENT, Scope.USER})
        )
        query = unit_rows(np.random.default_rng(5), 1)[0].tolist()
        await store.ranking.semantic_ranking(query, viewer, TOP_K, space=SPACE)
        elapsed = time.perf_counter() - started
        after = rss_mb()
    return {"open_first_s": elapsed, "rss_before_mb": before, "rss_after_mb": after}


def disk_bytes(path: Path) -> tuple[int, int]:
    """Bytes of the store (its file and WAL), and of the vectors' chunks in it."""
    files = [p for p in path.parent.glob(path.name + "*") if p.is_file()]
    with closing(sqlite3.connect(path)) as raw:
        (in_chunks,) = raw.execute(
            "SELECT coalesce(sum(length(rows)), 0) FROM vector_chunks"
        ).fetchone()
    return sum(p.stat().st_size for p in files), int(in_chunks)


def p(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min) on {CORES} cores"


def report(
    label: str,
    built: Built,
    times: dict[str, list[float]],
    rates: dict[int, float] | None,
    opened: dict[str, float],
    disk: tuple[int, int],
) -> None:
    visible = len(built.visible)
    print(
        f"\n{label}: {built.facts:,} facts, {visible:,} visible to the viewer, {DIM}-d, top {TOP_K}"
    )
    print(f"  {load()}")
    rate = built.facts / built.build_s
    print(
        f"  build (add_facts, batches of {BUILD_BATCH:,})  {built.build_s / 60:7.2f} min"
        f"  ({rate:,.0f} facts/s; in add_facts {built.store_s / 60:.2f} min,"
        f" {built.facts / built.store_s:,.0f} facts/s)"
    )
    p50s = {k: p(t, 50) for k, t in times.items()}
    for key, t in times.items():
        if "/" in key:
            print(f"  floor {key:<38} p50 {p(t, 50):8.3f} ms p95 {p(t, 95):8.3f} ms")
    way, best = fastest(p50s, "visible/")
    print(f"  fastest floor over the {visible:,} visible vectors: {way}, p50 {best:.3f} ms")
    if any(k.startswith("all/") for k in p50s):
        way_all, best_all = fastest(p50s, "all/")
        every = len(built.every)
        print(f"  fastest floor over all {every:,} vectors: {way_all}, p50 {best_all:.3f} ms")
    for mode in SearchMode:
        t = times[mode]
        print(
            f"  search_facts {mode:<8} p50 {p(t, 50):8.3f} ms p95 {p(t, 95):8.3f} ms"
            f"  | p50 / fastest visible floor {p(t, 50) / best:6.2f}x"
        )
    if rates:
        line = "  ".join(f"{k:,}/call {v:9,.0f}/s" for k, v in rates.items())
        print(f"  ingest (MemoryService.add_facts)  {line}")
    gained = opened["rss_after_mb"] - opened["rss_before_mb"]
    half_mb = visible * DIM * 2 / 2**20  # what the first search loads
    print(f"  open + first search (fresh process) {opened['open_first_s']:7.2f} s")
    print(
        f"  resident memory: {opened['rss_after_mb']:,.0f} MB after the first search "
        f"(+{gained:,.0f} MB by opening and searching); the visible vectors in float16 "
        f"{half_mb:,.0f} MB, target +{1.5 * half_mb + 200:,.0f} MB"
    )
    stored = built.facts + sum(INGEST_PLAN.values()) * bool(rates)
    total, files = disk
    print(
        f"  disk {total / stored:,.0f} bytes per fact ({total / 2**20:,.0f} MB, {stored:,} facts;"
        f" vector chunks {files / stored:,.0f} bytes per fact)"
    )


async def measure(label: str, built: Built, queries: int, with_ingest: bool) -> None:
    rng = np.random.default_rng(built.facts + 7)
    embedder = PrecomputedEmbedder()
    asked = queries * len(SearchMode)  # each mode its own queries
    texts = [f"q{i} " + " ".join(rng.choice(WORDS, size=3)) for i in range(asked)]
    probes = unit_rows(rng, asked)
    for text, probe in zip(texts, probes, strict=True):
        embedder.vectors[text] = probe.tolist()
    opened = first_open(built.path)  # before this process loads anything
    async with await open_sqlite(built.path) as store:
        memory = MemoryService(store, embedder, ScriptedLLM([]), FakeClock(NOW))
        conv = memory.conversation(AGENT, "bench-session", [VIEWER_USER])
        await memory.search_facts(conv, ["warm up"], TOP_K)
        times = await searches(memory, conv, texts, probes, built)
        rates = await ingest_rates(memory, embedder, built.facts) if with_ingest else None
        await memory.wait_for_background()
    report(label, built, times, rates, opened, disk_bytes(built.path))


def remove(folder: Path, pattern: str) -> None:
    """Free the disk a built store took (a 1M store is ~4 GB)."""
    for extra in folder.glob(pattern):
        if extra.is_dir():
            shutil.rmtree(extra)
        else:
            extra.unlink()


def single_tenant(i: int) -> str | None:
    return None if i % 5 == 0 else VIEWER_USER


def spread_tenants(i: int) -> str | None:
    """One fact in five the agent's, the others dealt in turn to 1,000 users (u0 first)."""
    return None if i % 5 == 0 else f"u{(i - i // 5 - 1) % TENANTS}"


LAYOUTS = {"one-user": ("one user", single_tenant), "tenants": ("1,000 users", spread_tenants)}


async def run(
    sizes: list[int], layouts: list[str], queries: int, folder: Path, ingest: bool
) -> None:
    for size in sizes:
        for layout in layouts:
            label, owners = LAYOUTS[layout]
            name = f"scale-{layout}-{size}.db"
            built = await build(folder / name, owners, size, size)
            await measure(label, built, queries, with_ingest=ingest and layout == "one-user")
            remove(folder, name + "*")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--layout", choices=[*LAYOUTS, "both"], default="both")
    parser.add_argument("--queries", type=int, default=100, help="queries per search mode")
    parser.add_argument("--no-ingest", action="store_true", help="skip the ingest rates")
    parser.add_argument("--folder", type=Path, default=None, help="where the stores are built")
    parser.add_argument("--first-search", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_search:
        print(json.dumps(asyncio.run(open_and_search(args.first_search))))
        return
    layouts = list(LAYOUTS) if args.layout == "both" else [args.layout]
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {stamp}; {load()}")
    work = (args.sizes, layouts, args.queries)
    if args.folder:
        args.folder.mkdir(parents=True, exist_ok=True)
        asyncio.run(run(*work, args.folder, not args.no_ingest))
        return
    with tempfile.TemporaryDirectory(prefix="eden-scale-") as folder:
        asyncio.run(run(*work, Path(folder), not args.no_ingest))


if __name__ == "__main__":
    main()
