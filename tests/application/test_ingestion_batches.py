"""Direct ingestion asks the store little, and writes its batches in order.

On a busy machine each round trip to a store's worker thread waits to be scheduled, so a call
of one fact asks for its reads together and writes once; a long call validates the next
batch while the one before it is written. The store here records each call it gets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import EmbeddingSpaceError, StoreError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope
from eden_memory.ports.stores import FactStore, Vector
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.faults import facts_replaced

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class CallRecordingStore:
    """The facts of an in-memory store, recording the calls ingestion makes and how many
    writes overlap."""

    def __init__(self) -> None:
        self.base = memory_stores()
        self.inner: FactStore = self.base.facts
        self.calls: list[str] = []
        self.writing = 0
        self.most_writing = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def embedding_space(self) -> EmbeddingSpace | None:
        self.calls.append("embedding_space")
        return await self.inner.embedding_space()

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        self.calls.append("known_hashes")
        return await self.inner.known_hashes(agent_id, user_id, among)

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        self.calls.append("get_facts")
        return await self.inner.get_facts(ids)

    async def add_facts(self, facts: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        self.calls.append("add_facts")
        self.writing += 1
        self.most_writing = max(self.most_writing, self.writing)
        await asyncio.sleep(0.001)  # a write takes time: the next batch is validated meanwhile
        try:
            return await self.inner.add_facts(facts, vectors)
        finally:
            self.writing -= 1


def _item(content: str, **extra: Any) -> dict[str, Any]:
    said = (NOW - timedelta(days=1)).isoformat()
    return {"content": content, "agent_id": "nova", "user_id": "alice", "formed_at": said} | extra


def _service(store: CallRecordingStore, dimension: int = 256) -> MemoryService:
    stores = facts_replaced(store.base, store)
    return MemoryService(stores, KeywordEmbedder(dimension), ScriptedLLM([]), FakeClock(NOW))


async def test_one_new_fact_costs_one_round_of_reads_and_one_write() -> None:
    store = CallRecordingStore()
    report = await _service(store).admin.add_facts([_item("Alice moved to Lyon")])
    assert len(report.added) == 1
    assert sorted(store.calls) == ["add_facts", "embedding_space", "known_hashes"]


async def test_an_id_the_host_chose_is_looked_up_with_the_hashes() -> None:
    store = CallRecordingStore()
    memory = _service(store)
    await memory.admin.add_facts([_item("Alice moved to Lyon", id="h1")])
    store.calls.clear()
    report = await memory.admin.add_facts([_item("Alice has a cat", id="h1")])
    assert "already stored" in report.rejected[0].reason
    assert sorted(store.calls) == ["embedding_space", "get_facts", "known_hashes"]


async def test_batches_are_written_one_at_a_time_in_order() -> None:
    store = CallRecordingStore()
    items = [_item(f"Fact number {i}") for i in range(50)]
    told: list[int] = []
    report = await _service(store).admin.add_facts(items, batch_size=7, on_progress=told.append)
    assert store.calls.count("add_facts") == 8
    assert store.most_writing == 1
    stored = await store.get_facts(report.added)
    assert [f.content for f in stored] == [f"Fact number {i}" for i in range(50)]
    assert sum(told) == 50


async def test_an_id_given_twice_across_batches_in_flight_is_refused_once_stored() -> None:
    store = CallRecordingStore()
    items = [_item(f"Fact number {i}") for i in range(6)] + [_item("Alice has a dog", id="h2")]
    items += [_item("Alice has a cat", id="h2")]
    report = await _service(store).admin.add_facts(items, batch_size=7)
    assert len(report.added) == 7
    assert [r.index for r in report.rejected] == [7]
    assert "twice" in report.rejected[0].reason


async def test_another_space_is_refused_before_embedding_even_with_nothing_to_write() -> None:
    store = CallRecordingStore()
    await _service(store, dimension=64).admin.add_facts([_item("Alice moved to Lyon")])
    with pytest.raises(EmbeddingSpaceError):
        await _service(store).admin.add_facts([])
    with pytest.raises(EmbeddingSpaceError):
        await _service(store).admin.add_facts([_item("Alice has a cat")])
    assert store.calls.count("add_facts") == 1


class FailingSecondWrite(CallRecordingStore):
    async def add_facts(self, facts: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        if self.calls.count("add_facts") == 1:
            self.calls.append("add_facts")
            raise StoreError("the disk is full")
        return await super().add_facts(facts, vectors)


async def test_a_failed_write_fails_the_call_and_earlier_batches_stay_stored() -> None:
    store = FailingSecondWrite()
    items = [_item(f"Fact number {i}") for i in range(30)]
    with pytest.raises(StoreError, match="disk is full"):
        await _service(store).admin.add_facts(items, batch_size=10)
    held = await store.known_hashes(AgentId("nova"), UserId("alice"))
    assert len(held) == 10
    assert store.calls.count("add_facts") == 2  # nothing written after the failure
