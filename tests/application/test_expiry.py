"""A fact past its valid_until leaves the context and search, and stays listed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import FactSettings, MemorySettings
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _service(settings: MemorySettings | None = None) -> tuple[MemoryService, FakeClock]:
    clock = FakeClock(NOW)
    stores = memory_stores()
    return MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), clock, settings), clock


def _item(content: str, hours_ago: float, until: timedelta | None = None) -> dict[str, Any]:
    said = NOW - timedelta(hours=hours_ago)
    item = {"content": content, "agent_id": "nova", "user_id": "alice", "formed_at": said}
    return item | ({} if until is None else {"valid_until": NOW + until})


def _conversation(memory: MemoryService) -> Any:
    return memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])


async def test_search_leaves_expired_facts_out_and_fills_their_places() -> None:
    memory, clock = _service()
    await memory.admin.add_facts(
        [
            _item("Alice is in Rome for the tea festival", 3, until=timedelta(hours=1)),
            _item("Alice drinks green tea", 2),
            _item("Alice grows tea in her garden", 1),
        ]
    )
    conv = _conversation(memory)
    before = await memory.search_facts(conv, ["tea festival in Rome"], 1, thresholds=False)
    assert [r.fact.content for r in before.results] == ["Alice is in Rome for the tea festival"]
    clock.advance(hours=1)
    after = await memory.search_facts(conv, ["tea festival in Rome"], 2, thresholds=False)
    assert sorted(r.fact.content for r in after.results) == [
        "Alice drinks green tea",
        "Alice grows tea in her garden",
    ]
    listed = await memory.admin.list_facts("nova", user_id="alice")
    assert len(listed) == 3  # still listed, marked by its valid_until


async def test_the_context_drops_a_fact_when_it_expires_even_from_its_cache() -> None:
    memory, clock = _service()
    await memory.admin.add_facts(
        [_item("Alice is in Rome", 2, until=timedelta(minutes=1)), _item("Alice likes tea", 1)]
    )
    conv = _conversation(memory)
    first = await memory.get_context(conv)
    assert "Alice is in Rome" in first.xml
    assert first.facts == 2
    clock.advance(seconds=30)
    assert (await memory.get_context(conv)).from_cache
    clock.advance(seconds=30)  # nothing was written: the cached context expires with the fact
    later = await memory.get_context(conv)
    assert not later.from_cache
    assert "Alice is in Rome" not in later.xml
    assert "Alice likes tea" in later.xml


async def test_expired_facts_give_their_places_in_the_recent_list_to_older_ones() -> None:
    settings = MemorySettings(facts=FactSettings(fifo_limit=2))
    memory, _ = _service(settings)
    ended = -timedelta(minutes=1)
    gone = [_item(f"Alice was in city {n}", n / 10, until=ended) for n in (1, 2, 3)]
    kept = [_item(f"Alice likes dish {n}", 1 + n) for n in range(3)]
    await memory.admin.add_facts([*gone, *kept])
    context = await memory.get_context(_conversation(memory))
    assert context.facts == 2
    assert "Alice likes dish 0" in context.xml
    assert "Alice likes dish 1" in context.xml
    assert "city" not in context.xml
