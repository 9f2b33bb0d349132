"""Direct ingestion says what a fact supersedes (an id or a key) and until when it holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from eden_memory.application.service import MemoryService
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.stores import StoreMaker

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CITY = "user.home_city"


def _service() -> MemoryService:
    return MemoryService(memory_stores(), KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW))


def _item(content: str, days_ago: int, **extra: Any) -> dict[str, Any]:
    said = NOW - timedelta(days=days_ago)
    return {"content": content, "agent_id": "nova", "user_id": "alice", "formed_at": said} | extra


async def _facts(memory: MemoryService) -> dict[str, Fact]:
    return {f.content: f for f in await memory.admin.list_facts("nova", status=None)}


async def _found(memory: MemoryService, query: str) -> list[str]:
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    found = await memory.search_facts(conv, [query], thresholds=False)
    return [r.fact.content for r in found.results]


async def test_a_newer_fact_of_a_key_retires_the_older_one() -> None:
    memory = _service()
    await memory.admin.add_facts([_item("Alice lives in Boston", 90, key=CITY)])
    report = await memory.admin.add_facts([_item("Alice moved to Denver", 1, key=CITY)])
    facts = await _facts(memory)
    boston, denver = facts["Alice lives in Boston"], facts["Alice moved to Denver"]
    assert report.added == [denver.id]
    assert report.superseded == [boston.id]
    assert (boston.status, boston.superseded_by, boston.supersede_key) == (
        FactStatus.RETIRED,
        denver.id,
        CITY,
    )
    assert await _found(memory, "Alice lives in Boston or Denver") == ["Alice moved to Denver"]


async def test_one_call_in_any_order_keeps_the_newest_of_a_key() -> None:
    memory = _service()
    items = [
        _item("Alice moved to Denver", 1, key=CITY),
        _item("Alice lives in Boston", 90, key=CITY),
        _item("Alice has a cat", 5),
    ]
    report = await memory.admin.add_facts(items, batch_size=2)
    facts = await _facts(memory)
    assert len(report.added) == 3
    assert report.superseded == []
    assert facts["Alice lives in Boston"].status is FactStatus.RETIRED
    assert facts["Alice lives in Boston"].superseded_by == facts["Alice moved to Denver"].id
    assert facts["Alice moved to Denver"].is_active
    assert facts["Alice has a cat"].is_active


async def test_a_fact_supersedes_a_stored_fact_or_an_earlier_one_by_id() -> None:
    memory = _service()
    await memory.admin.add_facts([_item("Alice is 30", 400, id="age-30")])
    report = await memory.admin.add_facts(
        [
            _item("Alice is 31", 30, id="age-31", supersedes="age-30"),
            _item("Alice is 32", 1, supersedes="age-31"),
        ]
    )
    facts = await _facts(memory)
    assert report.superseded == ["age-30", "age-31"]
    assert facts["Alice is 30"].superseded_by == "age-31"
    assert facts["Alice is 31"].superseded_by == facts["Alice is 32"].id
    assert [f.content for f in facts.values() if f.is_active] == ["Alice is 32"]


async def test_what_cannot_be_superseded_is_refused_item_by_item() -> None:
    memory = _service()
    await memory.admin.add_facts(
        [{"content": "Office in Lyon", "scope": "agent", "agent_id": "nova", "formed_at": NOW}]
    )
    [office] = await memory.admin.list_facts("nova")
    report = await memory.admin.add_facts(
        [
            _item("Alice is 31", 3, supersedes="no-such-fact"),
            _item("Alice works in Paris", 2, supersedes=office.id),
            _item("Alice has a dog", 2, supersedes="later"),
            _item("Alice has a cat", 1, id="later"),
            _item("Alice is tall", 1, supersedes="a fact"),
        ]
    )
    reasons = {r.index: r.reason for r in report.rejected}
    assert "fact no-such-fact to supersede is not stored" in reasons[0]
    assert f"fact {office.id} is in agent scope, not user scope of user alice" in reasons[1]
    assert "fact later to supersede is not stored" in reasons[2]
    assert "supersedes 'a fact' is not valid" in reasons[4]
    assert sorted(reasons) == [0, 1, 2, 4]
    assert [f.content for f in await memory.admin.list_facts("nova", user_id="alice")] == [
        "Alice has a cat"
    ]
    assert (await _facts(memory))["Office in Lyon"].is_active


async def test_a_valid_until_is_kept_and_one_before_the_fact_is_refused() -> None:
    memory = _service()
    until = NOW + timedelta(days=7)
    report = await memory.admin.add_facts(
        [
            _item("Alice is in Rome this week", 1, valid_until=until),
            _item("Alice was in Oslo", 1, valid_until=NOW - timedelta(days=2)),
        ]
    )
    [rejected] = report.rejected
    assert rejected.index == 1
    assert "must be after formed_at" in rejected.reason
    assert (await _facts(memory))["Alice is in Rome this week"].valid_until == until


async def test_an_export_keeps_the_freshness_fields_and_imports_them_again() -> None:
    memory = _service()
    until = NOW + timedelta(days=7)
    await memory.admin.add_facts([_item("Alice is in Rome", 1, key=CITY, valid_until=until)])
    lines = [line async for line in memory.admin.export("nova")]
    other = _service()
    await other.admin.import_lines(lines)
    [fact] = await other.admin.list_facts("nova")
    assert (fact.supersede_key, fact.valid_until) == (CITY, until)


async def test_one_call_retiring_its_own_facts_leaves_search_sound_on_every_store(
    make_store: StoreMaker,
) -> None:
    # Issue 40, item 6: a fact and the newer fact retiring it (by key, or naming it) in one
    # call left the embedded store's keyword row count one short per retired fact; "Alice",
    # in every fact, then made the keyword score take the log of a negative number.
    memory = MemoryService(await make_store(), KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW))
    items = [_item(f"Alice {what}", 3) for what in ("has a cat", "drinks tea", "plays chess")]
    items += [
        _item("Alice lives in Boston", 90, key=CITY),
        _item("Alice moved to Denver", 1, key=CITY),
        _item("Alice is 30", 400, id="age-30"),
        _item("Alice is 31", 2, supersedes="age-30"),
    ]
    report = await memory.admin.add_facts(items)
    assert len(report.superseded) == 2
    for query in ("Alice", "Alice Denver", "Alice tea chess cat"):
        conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
        found = await memory.search_facts(conv, [query], top_k=10, thresholds=False)
        assert len(found.results) == 5
        assert all(0 <= r.score < float("inf") for r in found.results)
        assert all(0 <= (r.relevance or 0) <= 1 for r in found.results)
