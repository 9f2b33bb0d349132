"""A write that only inserts active facts appends the rows it holds to the partition's log.

Reading them back from the fact rows cost a select per partition on every write, and most of a
single-fact write's share of the log's upkeep. Each test checks both sides: the writer's
statements (no vector is read back), and what a freshly opened store ranks, from the log
alone, against the exact ranking of what the fact rows hold.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import SqliteFacts, open_sqlite
from eden_memory.domain.models import FactStatus
from eden_memory.ports.stores import Stores
from tests.unit.adapters.sqlite.test_sqlite_vector_logs import (
    fact,
    ranked,
    the_row,
    truth,
    vectors,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
async def store(path: Path) -> AsyncIterator[Stores]:
    """A store of 20 facts of one user."""
    async with await open_sqlite(path) as opened:
        await opened.facts.add_facts([fact(n) for n in range(20)], vectors(20))
        yield opened


async def _vector_reads(store: Stores, job: Awaitable[object]) -> list[str]:
    """The statements the store's writer ran for ``job`` that read vectors or tombstones."""
    assert isinstance(store.facts, SqliteFacts)
    writer = store.facts._handle.writer
    seen: list[str] = []
    await writer.run(lambda c: c.set_trace_callback(seen.append))
    try:
        await job
    finally:
        await writer.run(lambda c: c.set_trace_callback(None))
    return [s for s in seen if "vector FROM facts" in s or "FROM fact_tombstones" in s]


def _relabel_rows(path: Path) -> None:
    """Proof the log is what a new store reads: read from the rows, nothing would match."""
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")


async def test_one_fact_and_a_batch_are_appended_without_reading_vectors_back(
    path: Path, store: Stores
) -> None:
    assert await _vector_reads(store, store.facts.add_facts([fact(20)], vectors(1, seed=2))) == []
    batch = [fact(n) for n in range(21, 26)] + [fact(90, user=None)]  # two partitions
    assert await _vector_reads(store, store.facts.add_facts(batch, vectors(6, seed=3))) == []
    assert the_row(path)[2] == 26
    assert the_row(path, ("agent", "agent", ""))[2] == 1
    query = [0.3, -0.8, 0.5]
    expected = truth(path, query)
    _relabel_rows(path)
    assert await ranked(path, query) == expected


async def test_a_batch_with_a_stored_fact_appends_only_what_it_inserted(
    path: Path, store: Stores
) -> None:
    batch = [fact(3), fact(30), fact(31)]  # fact 3 is stored: each fact goes on its own
    stored = await store.facts.add_facts(batch, vectors(3, seed=4))
    assert [f.id for f in stored] == ["fact-3", "fact-30", "fact-31"]
    assert the_row(path)[2] == 22
    query = [-0.2, 0.4, 1.0]
    expected = truth(path, query)
    _relabel_rows(path)
    assert await ranked(path, query) == expected


async def test_a_batch_holding_a_retired_fact_is_read_back_and_keeps_it_out(
    path: Path, store: Stores
) -> None:
    retired = fact(40).model_copy(update={"status": FactStatus.RETIRED})
    batch = [fact(41), retired, fact(42)]
    assert await _vector_reads(store, store.facts.add_facts(batch, vectors(3, seed=5))) != []
    for query in ([1.0, 0.0, 0.0], [0.0, 0.5, -1.0]):
        found = await ranked(path, query)
        assert found == truth(path, query)
        assert "fact-40" not in found


async def test_a_log_behind_its_partition_is_caught_up_from_the_rows(
    path: Path, store: Stores
) -> None:
    with sqlite3.connect(path) as raw:  # another writer's change the log has not followed
        raw.execute("UPDATE counters SET value = value + 1 WHERE name = 'fact_seq'")
        raw.execute("UPDATE facts SET seq = seq + 1 WHERE id = 'fact-19'")
        raw.execute("UPDATE scope_state SET fact_seq = fact_seq + 1 WHERE scope = 'user'")
    added = store.facts.add_facts([fact(50)], vectors(1, seed=6))
    assert await _vector_reads(store, added) != []
    query = [0.7, 0.7, 0.1]
    expected = truth(path, query)
    _relabel_rows(path)
    assert await ranked(path, query) == expected
