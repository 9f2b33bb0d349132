"""Every statement of a search and of a write is planned well on a store never closed.

SQLite's planner statistics are written when a store closes (``PRAGMA optimize``): a process
that fills a store and searches it plans without them. Each statement the store runs is
captured as it runs (with its values), then planned again on the same never-analysed file: no
plan may walk a partition's index to find rows named by id, merge indexes with an OR, or read
the whole facts table.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.domain.ids import AgentId, UserId
from eden_memory.domain.models import Fact
from eden_memory.ports.stores import FactQuery, Stores
from tests.unit.adapters.sqlite.test_sqlite_persistence import SPACE, T0, VIEWER, fact

OTHERS = 40
FACTS = 1_200
UNPLANNED = ("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA", "SAVEPOINT", "RELEASE", "--")


def _facts() -> list[Fact]:
    """The viewer's two partitions and 40 other users', interleaved."""
    out = []
    for n in range(FACTS):
        made = fact(n, f"note {n} about kayak trip {n % 7}")
        if n % 3 == 1:
            made = made.model_copy(update={"user_id": UserId(f"other{n % OTHERS}")})
        out.append(made)
    return out


def _vector(n: int) -> list[float]:
    return [1.0, (n % 11) / 11, (n % 5) / 5, 0.5]


@contextmanager
def statements(store: Stores) -> Iterator[list[str]]:
    """Every statement the store's three connections run meanwhile, values filled in."""
    handle: SqliteHandle = store.facts._handle  # type: ignore[attr-defined]
    seen: list[str] = []
    workers = (handle.writer, handle.reader, handle.searcher)
    for worker in workers:
        worker.call(lambda conn: conn.set_trace_callback(seen.append))
    try:
        yield seen
    finally:
        for worker in workers:
            worker.call(lambda conn: conn.set_trace_callback(None))


def plans(path: Path, seen: list[str]) -> dict[str, str]:
    """Each planned statement's plan, as one line, on a connection of its own."""
    out: dict[str, str] = {}
    with sqlite3.connect(path) as raw:
        assert not raw.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).fetchall(), "the store was analysed: the test would prove nothing"
        for sql in dict.fromkeys(seen):
            if not sql.lstrip().upper().startswith(UNPLANNED):
                rows = raw.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
                out[sql] = " | ".join(str(row[3]) for row in rows)
    return out


def misplanned(found: dict[str, str]) -> list[str]:
    bad = []
    for sql, plan in found.items():
        whole_table = plan.endswith("SCAN facts") or "SCAN facts |" in plan
        by_id = re.search(r"\bFROM facts\b.* (id IN \(|id = )", sql) is not None
        off_id = by_id and "sqlite_autoindex_facts_1 (id=?)" not in plan
        if "MULTI-INDEX OR" in plan or whole_table or off_id:
            bad.append(f"{sql[:120]} -> {plan}")
    return bad


async def _filled(path: Path) -> Stores:
    store = await open_sqlite(path)
    facts = _facts()
    await store.facts.add_facts(facts, [_vector(n) for n in range(len(facts))])
    return store


async def test_a_search_in_the_process_that_filled_the_store_reads_candidates_by_id(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    store = await _filled(path)
    try:
        with statements(store) as seen:
            hits = await store.ranking.semantic_ranking(_vector(3), VIEWER, 80, space=SPACE)
            words = await store.ranking.keyword_ranking("kayak trip 3", VIEWER, 80)
            ids = [h.id for h in [*hits, *words]]
            origins = await store.fact_reads.fact_origins(ids, VIEWER)
            await store.facts.get_facts(ids[:10])
            await store.fact_reads.recent_facts(VIEWER, T0, 20)
            await store.fact_records.list_facts(FactQuery(AgentId("agent"), limit=10))
        found = plans(path, seen)
    finally:
        await store.close()
    assert hits
    assert words
    assert origins
    origin_reads = [plan for sql, plan in found.items() if "source_session_id" in sql]
    assert origin_reads
    assert all("sqlite_autoindex_facts_1 (id=?)" in plan for plan in origin_reads)
    assert misplanned(found) == []


async def test_the_writes_of_a_store_never_closed_find_their_rows_by_index(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    store = await _filled(path)
    try:
        with statements(store) as seen:
            more = [fact(n, f"later note {n}") for n in range(FACTS, FACTS + 50)]
            await store.facts.add_facts(more, [_vector(n) for n in range(50)])
            changed = more[0].model_copy(update={"content": "an edited note"})
            await store.facts.update_fact(changed, _vector(1), more[0].version)
            await store.fact_reads.record_access([f.id for f in more[:5]], T0)
            await store.fact_records.delete_facts([more[1].id])
        found = plans(path, seen)
    finally:
        await store.close()
    assert any(sql.startswith("INSERT INTO facts") for sql in found)
    assert misplanned(found) == []
