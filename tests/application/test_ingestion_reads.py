"""Adding facts reads what the batch needs, never the rest of the store.

The store is wrapped so that every fact, vector and hash a read returns is counted: adding one
fact to a store of thousands must read a handful of entries, the same as in an empty store.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from eden_memory.application.service import MemoryService
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope
from eden_memory.ports.stores import FactQuery
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.faults import facts_replaced
from tests.contract.store.world import WholeFacts, whole_facts

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
STORED = 3000


class ReadCountingStore:
    """The facts of a store, counting the entries every read of facts returns."""

    def __init__(self, inner: WholeFacts) -> None:
        self.inner = inner
        self.entries_read = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        found = await self.inner.get_facts(ids)
        self.entries_read += len(found)
        return found

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]:
        found = await self.inner.get_vectors(ids)
        self.entries_read += len(found)
        return found

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        found = await self.inner.known_hashes(agent_id, user_id, among)
        self.entries_read += len(found)
        return found

    async def list_facts(self, query: FactQuery) -> list[Fact]:
        found = await self.inner.list_facts(query)
        self.entries_read += len(found)
        return found


def _item(content: str) -> dict[str, Any]:
    said = (NOW - timedelta(days=1)).isoformat()
    return {"content": content, "agent_id": "nova", "user_id": "alice", "formed_at": said}


async def _reads_of_adding(stored: int) -> tuple[int, ReadCountingStore]:
    plain = memory_stores()
    store = ReadCountingStore(whole_facts(plain))
    stores = facts_replaced(plain, store)
    memory = MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW))
    await memory.admin.add_facts([_item(f"Stored fact number {i}") for i in range(stored)])
    store.entries_read = 0
    report = await memory.admin.add_facts(
        [_item("Alice moved to Lyon"), _item("Stored fact number 7")]
    )
    assert len(report.added) == 1
    assert report.duplicates == 1
    return store.entries_read, store


async def test_adding_to_a_large_store_reads_only_the_batch() -> None:
    in_large, _ = await _reads_of_adding(STORED)
    in_small, _ = await _reads_of_adding(10)
    assert in_large == in_small
    assert in_large <= 2  # the stored duplicate's hash, at most once more by id


async def test_a_duplicate_of_a_stored_fact_is_still_found() -> None:
    _, store = await _reads_of_adding(50)
    held = await store.known_hashes(AgentId("nova"), UserId("alice"))
    assert len(held) == 51
