"""Claims, compare-and-set, duplicates and counters hold between processes sharing a file.

Each worker is a fresh interpreter (``spawn``) with its own store on the same file; a barrier
releases them together so their transactions really overlap.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Message, Reflection, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import PendingMessage, Stores

WORKERS = 4
T0 = datetime(2026, 2, 1, tzinfo=UTC)
A, U, S = AgentId("agent"), UserId("user"), SessionId("session")
KEY = ScopeKey.user(A, U)
Job = Callable[[Stores, int], Coroutine[Any, Any, object]]


def fact(n: int) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content="Ada's locker code is 4471",
        scope=Scope.USER,
        agent_id=A,
        user_id=U,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model="m",
        embedding_dim=2,
    )


async def claim_job(store: Stores, n: int) -> object:
    claim = await store.sessions.claim_messages(A, S, f"worker-{n}", T0, 60.0, 1, 100)
    return None if claim is None else [m.id for m in claim.messages]


async def commit_job(store: Stores, n: int) -> object:
    blob = ConsolidatedMemory.empty(KEY, 300).evolve(content=f"by worker {n}", version=1)
    return await store.buffers.commit_consolidation(blob, 0, [ReflectionId("r0")], T0)


async def add_job(store: Stores, n: int) -> object:
    [stored] = await store.facts.add_facts([fact(n)], [[1.0, 0.0]])
    return stored.id


async def access_job(store: Stores, n: int) -> object:
    for _ in range(25):
        await store.fact_reads.record_access([FactId("fact-0")], T0)
    return n


async def vectors_job(store: Stores, n: int) -> object:
    """Adds and deletes facts in batches, searching between them (so every process writes,
    loads and mends the partition's vector log while the others append to it)."""
    rng = np.random.default_rng(n)
    viewer = FactVisibility(A, U, frozenset({Scope.USER}))
    for batch in range(5):
        facts = [
            Fact(**(fact(n * 100 + batch * 10 + i).model_dump() | {"content": f"w{n} {batch} {i}"}))
            for i in range(10)
        ]
        await store.facts.add_facts(facts, rng.standard_normal((10, 2)).tolist())
        await store.fact_records.delete_facts([facts[0].id])
        await store.ranking.semantic_ranking([1.0, 0.5], viewer, 5, space=EmbeddingSpace("m", 2))
    return n


JOBS: dict[str, Job] = {
    "claim": claim_job,
    "commit": commit_job,
    "add": add_job,
    "access": access_job,
    "vectors": vectors_job,
}


def worker(path: str, job: str, n: int, barrier: Any, results: Any) -> None:
    """One process: open the store, wait for the others, run the job, report (or fail)."""

    async def run() -> object:
        async with await open_sqlite(path, busy_timeout=30.0) as store:
            await asyncio.to_thread(barrier.wait, 60)  # never wait forever for a dead peer
            return await JOBS[job](store, n)

    try:
        results.put((n, "ok", asyncio.run(run())))
    except BaseException as exc:
        results.put((n, "error", repr(exc)))


def in_processes(path: Path, job: str) -> list[object]:
    """Run ``job`` in WORKERS processes at once; their results, in worker order."""
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(WORKERS), ctx.Queue()
    procs = [
        ctx.Process(target=worker, args=(str(path), job, n, barrier, results), daemon=True)
        for n in range(WORKERS)
    ]
    try:
        for proc in procs:
            proc.start()
        reports = [results.get(timeout=120) for _ in procs]
        for proc in procs:
            proc.join(timeout=30)
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
    failed = [r for r in reports if r[1] != "ok"]
    assert not failed, failed
    out = {n: value for n, _, value in reports}
    return [out[n] for n in range(WORKERS)]


async def test_of_processes_claiming_one_session_exactly_one_wins(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path) as store:
        sent = [
            Message(id=MessageId(f"m{n}"), role=Role.USER, text=f"hi {n}", sent_at=T0)
            for n in range(5)
        ]
        profile = SessionProfile(A, S, (U,), True, True, "", False)
        await store.sessions.record_messages(profile, [PendingMessage(m, 1.0) for m in sent], T0)
    results = await asyncio.to_thread(in_processes, path, "claim")
    winners = [r for r in results if r is not None]
    assert winners == [[f"m{n}" for n in range(5)]]


async def test_of_processes_committing_one_version_exactly_one_wins(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path) as store:
        await store.buffers.add_reflections(
            [Reflection.in_scope(KEY, id="r0", content="Likes tea", formed_at=T0, created_at=T0)]
        )
    results = await asyncio.to_thread(in_processes, path, "commit")
    assert results.count(True) == 1
    async with await open_sqlite(path) as store:
        blob = (await store.buffers.get_consolidated([KEY]))[KEY]
        assert blob.content == f"by worker {results.index(True)}"
        [absorbed] = await store.buffers.list_reflections(A, KEY, include_absorbed=True)
        assert (absorbed.absorbed, absorbed.absorbed_into_version) == (True, 1)


async def test_processes_adding_one_text_store_it_once(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await (await open_sqlite(path)).close()
    results = await asyncio.to_thread(in_processes, path, "add")
    assert len(set(results)) == 1
    async with await open_sqlite(path) as store:
        assert await store.fact_reads.count_facts(KEY) == 1


async def test_access_counts_from_every_process_add_up(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(0)], [[1.0, 0.0]])
    await asyncio.to_thread(in_processes, path, "access")
    async with await open_sqlite(path) as store:
        [counted] = await store.facts.get_facts([FactId("fact-0")])
        assert counted.access_count == WORKERS * 25


async def test_processes_writing_and_searching_share_one_exact_vector_log(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path):
        pass
    await asyncio.to_thread(in_processes, path, "vectors")
    viewer = FactVisibility(A, U, frozenset({Scope.USER}))
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT id, vector FROM facts WHERE status = 'active'").fetchall()
        (written,) = raw.execute("SELECT written FROM vector_logs").fetchone()
    assert len(rows) == WORKERS * 5 * 9
    assert written >= len(rows)
    matrix = np.array([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    for query in ([1.0, 0.0], [-0.3, 1.0], [0.7, -0.7]):
        expected = [rows[i][0] for i in np.argsort(-(matrix @ np.array(query)))[:10]]
        async with await open_sqlite(path) as store:  # opens from the shared file
            hits = await store.ranking.semantic_ranking(
                query, viewer, 10, space=EmbeddingSpace("m", 2)
            )
        assert [h.id for h in hits] == expected
