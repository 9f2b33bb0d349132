"""Loading a partition's vectors on a store's first search, and the writes that keep them.

Prints figures; it is not a test. Chose the layout of the embedded store's vectors (issue 29:
chunk rows in the store file, instead of files beside it). Through the public API only, so
the same script measures any release: run it from a checkout of each (``--label`` names it).

* ingest: facts/s of ``add_facts`` in calls of 10,000 facts (building the store, 384-d random
  unit vectors, 4 in 5 of the viewer's user and 1 in 5 agent-scoped) and of one fact (into
  the user's partition, the one searched);
* open + first search, in a fresh process each time (warm page cache), ``--opens`` times:
  what a server pays to bring the viewer's partitions into memory.

    python -m benchmarks.vector_load --size 100000 --folder /tmp/new --label rows
    python -m benchmarks.vector_load --reopen /tmp/new/store.db --opens 9   # opens only
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Vector

DIM = 384
SPACE = EmbeddingSpace("bench-random", DIM)
AGENT, USER = AgentId("bench-agent"), UserId("u0")
VIEWER = FactVisibility(AGENT, USER, frozenset({Scope.AGENT, Scope.USER}))
BATCH = 10_000
SINGLES = 500
Matrix = npt.NDArray[np.float32]


def unit_rows(rng: np.random.Generator, n: int) -> Matrix:
    m = rng.standard_normal((n, DIM), dtype=np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return m


def make_fact(i: int) -> Fact:
    at = datetime(2026, 6, 1, tzinfo=UTC) - timedelta(seconds=10_000_000 - i)
    agent_wide = i % 5 == 0
    return Fact(
        id=FactId(f"f{i}"),
        content=f"note {i} about something",
        scope=Scope.AGENT if agent_wide else Scope.USER,
        agent_id=AGENT,
        user_id=None if agent_wide else USER,
        formed_at=at,
        created_at=at,
        updated_at=at,
        embedding_model=SPACE.model,
        embedding_dim=DIM,
    )


async def build(path: Path, size: int) -> dict[str, float]:
    rng = np.random.default_rng(size)
    in_store = 0.0
    async with await open_sqlite(path) as store:
        for at in range(0, size, BATCH):
            count = min(BATCH, size - at)
            facts = [make_fact(i) for i in range(at, at + count)]
            rows = cast("list[Vector]", list(unit_rows(rng, count)))
            started = time.perf_counter()
            await store.facts.add_facts(facts, rows)
            in_store += time.perf_counter() - started
        singles = [make_fact(size + 5 * i + 1) for i in range(SINGLES)]  # the user's facts
        rows = cast("list[Vector]", list(unit_rows(rng, SINGLES)))
        started = time.perf_counter()
        for one, row in zip(singles, rows, strict=True):
            await store.facts.add_facts([one], [row])
        one_s = time.perf_counter() - started
    return {"batched_per_s": size / in_store, "single_per_s": SINGLES / one_s}


async def first_search(path: Path) -> float:
    query = unit_rows(np.random.default_rng(5), 1)[0].tolist()
    started = time.perf_counter()
    async with await open_sqlite(path) as store:
        await store.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE)
        return time.perf_counter() - started


def opens(path: Path, count: int) -> list[float]:
    """Open + first search in a fresh process each time, in seconds."""
    out = []
    for _ in range(count):
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.vector_load", "--first-search", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--label", default="")
    parser.add_argument("--opens", type=int, default=7)
    parser.add_argument("--reopen", type=Path, help="measure opens of this store only")
    parser.add_argument("--first-search", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_search:
        print(asyncio.run(first_search(args.first_search)))
        return
    figures: dict[str, object] = {"label": args.label, "load_before": os.getloadavg()[0]}
    path = args.reopen
    if path is None:
        args.folder.mkdir(parents=True, exist_ok=True)
        path = args.folder / "store.db"
        figures |= asyncio.run(build(path, args.size))
    times = opens(path, args.opens)
    figures |= {
        "open_first_search_s_median": statistics.median(times),
        "open_first_search_s_min": min(times),
        "load_after": os.getloadavg()[0],
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
