"""Listing pages continue from a position along one index (schema version 6); pages of 8 KB.

A version-5 file is upgraded losslessly: its facts, their order and their search stay, the
listing index replaces the (agent, time) one, and a continued page neither sorts nor skips.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.facts.queries import listing_sql
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.ports.stores import FactQuery, ListingPosition
from tests.unit.adapters.sqlite.test_sqlite_persistence import SPACE, T0, VIEWER, fact

A = AgentId("agent")


def _facts() -> list[Fact]:
    return [
        fact(n, f"note {n} about kayaks").model_copy(
            update={"formed_at": T0 + timedelta(seconds=n % 4)}
        )
        for n in range(12)
    ]


def as_version_5(path: Path) -> None:
    """The file's indexes as versions 1-5 made them."""
    with sqlite3.connect(path) as raw:
        raw.execute("DROP INDEX facts_listing")
        raw.execute("CREATE INDEX facts_agent_formed ON facts (agent_id, formed_us)")
        raw.execute("PRAGMA user_version = 5")


def indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        return {name for (name,) in rows}


async def test_a_version_5_file_upgrades_with_nothing_lost(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    facts = _facts()
    async with await open_sqlite(path) as store:
        await store.facts.add_facts(facts, [[1.0, 0.0, 0.0, 0.0]] * len(facts))
        before = await store.fact_records.list_facts(FactQuery(A, limit=100))
    as_version_5(path)
    assert "facts_listing" not in indexes(path)
    async with await open_sqlite(path) as store:
        assert await store.facts.get_facts([f.id for f in facts]) == facts
        assert await store.fact_records.list_facts(FactQuery(A, limit=100)) == before
        after = ListingPosition.after(before[3])
        assert (
            await store.fact_records.list_facts(FactQuery(A, limit=4, after=after)) == before[4:8]
        )
        found = await store.ranking.keyword_ranking("kayaks", VIEWER, 20)
        assert {r.id for r in found} == {f.id for f in facts}
        ranked = await store.ranking.semantic_ranking([1.0, 0, 0, 0], VIEWER, 20, space=SPACE)
        assert len(ranked) == len(facts)
    assert "facts_listing" in indexes(path)
    assert "facts_agent_formed" not in indexes(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


async def listing_plan(path: Path, query: FactQuery) -> str:
    """The query plan of the store's own statement for a listing page continued from a
    position."""
    await (await open_sqlite(path)).close()
    sql, params = listing_sql(replace(query, after=ListingPosition(T0, FactId("x"))))
    with sqlite3.connect(path) as raw:
        plan = raw.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
    return " ".join(str(row[3]) for row in plan)


async def test_a_continued_page_walks_the_index_without_sorting(tmp_path: Path) -> None:
    steps = await listing_plan(tmp_path / "memory.db", FactQuery(A, limit=10))
    assert "facts_listing" in steps
    assert "TEMP B-TREE" not in steps


async def test_one_users_page_walks_their_own_index_without_sorting(tmp_path: Path) -> None:
    steps = await listing_plan(
        tmp_path / "memory.db", FactQuery(A, user_id=UserId("alice"), limit=10)
    )
    assert "facts_owner_listing" in steps
    assert "TEMP B-TREE" not in steps


async def test_a_version_7_file_gains_the_owner_index_with_nothing_lost(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    facts = _facts()
    async with await open_sqlite(path) as store:
        await store.facts.add_facts(facts, [[1.0, 0.0, 0.0, 0.0]] * len(facts))
        before = await store.fact_records.list_facts(FactQuery(A, limit=100))
    with sqlite3.connect(path) as raw:
        raw.execute("DROP INDEX facts_owner_listing")
        raw.execute("PRAGMA user_version = 7")
    async with await open_sqlite(path) as store:
        assert await store.facts.get_facts([f.id for f in facts]) == facts
        assert await store.fact_records.list_facts(FactQuery(A, limit=100)) == before
    assert "facts_owner_listing" in indexes(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def page_size(path: Path) -> int:
    with sqlite3.connect(path) as raw:
        return int(raw.execute("PRAGMA page_size").fetchone()[0])


async def test_a_new_file_has_pages_that_hold_several_facts(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await (await open_sqlite(path)).close()
    assert page_size(path) == 8192


async def test_a_file_with_smaller_pages_keeps_them_and_its_facts(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA page_size = 4096")
    raw.execute("CREATE TABLE probe (x)")  # the file now exists with 4 KB pages
    raw.execute("DROP TABLE probe")
    raw.close()
    facts = _facts()
    async with await open_sqlite(path) as store:
        await store.facts.add_facts(facts, [[1.0, 0.0, 0.0, 0.0]] * len(facts))
    async with await open_sqlite(path) as store:
        assert await store.facts.get_facts([f.id for f in facts]) == facts
    assert page_size(path) == 4096
