"""Search puts the newer of two results about the same thing first and marks the older."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from eden_memory.adapters.tools.rendering import render_results
from eden_memory.application.search import SearchResponse
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import AgentMemoryConfig, Scope
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HONDA, TESLA = "Alice drives a Honda Civic", "Alice sold her Honda and drives a Tesla now"
CAT = "Alice has a cat named Tom"


def _service(**search: Any) -> MemoryService:
    # The keyword embedder's cosine of HONDA and TESLA is 0.45: near-duplicates from 0.4.
    settings = MemorySettings(search=SearchSettings(same_thing_similarity=0.4, **search))
    return MemoryService(
        memory_stores(), KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW), settings
    )


def _item(content: str, days_ago: int) -> dict[str, Any]:
    said = NOW - timedelta(days=days_ago)
    return {"content": content, "agent_id": "nova", "user_id": "alice", "formed_at": said}


async def _search(memory: MemoryService, query: str) -> SearchResponse:
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    return await memory.search_facts(conv, [query], thresholds=False)


def _shown(found: SearchResponse) -> list[tuple[str, str | None]]:
    by_id = {r.fact.id: r.fact.content for r in found.results}
    return [(r.fact.content, r.newer and by_id[r.newer]) for r in found.results]


async def test_the_newer_of_two_near_duplicates_ranks_first_and_marks_the_older() -> None:
    memory = _service()
    await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1), _item(CAT, 5)])
    found = await _search(memory, "What car does Alice drive?")
    assert _shown(found)[:2] == [(TESLA, None), (HONDA, TESLA)]
    assert found.results[1].score > found.results[0].score  # scores stay the retrievers'


async def test_turned_off_the_fused_order_stays() -> None:
    memory = _service(newer_first=False)
    await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1)])
    found = await _search(memory, "What car does Alice drive?")
    assert _shown(found) == [(HONDA, None), (TESLA, None)]


async def test_a_question_naming_a_time_keeps_the_older_first_and_marked() -> None:
    memory = _service()
    await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1)])
    found = await _search(memory, "What car did Alice drive in November 2025?")
    assert _shown(found) == [(HONDA, TESLA), (TESLA, None)]


async def test_two_active_facts_of_one_key_are_ordered_by_time_however_unlike() -> None:
    memory = _service()
    stores = memory.admin.stores
    old, new = _fact("f-old", HONDA, 90, "user.car"), _fact("f-new", "Tesla", 1, "user.car")
    # Written as two writers racing would leave them: both active (no supersession ran).
    vectors = await KeywordEmbedder().embed([HONDA, "Tesla"], TextRole.PASSAGE)
    await stores.facts.add_facts([old, new], vectors.vectors)
    found = await _search(memory, "What car does Alice drive? A Honda?")
    assert [(r.fact.id, r.newer) for r in found.results] == [("f-new", None), ("f-old", "f-new")]


def _fact(fact_id: str, content: str, days_ago: int, key: str) -> Fact:
    said = NOW - timedelta(days=days_ago)
    return Fact(
        id=FactId(fact_id),
        content=content,
        scope=Scope.USER,
        agent_id=AgentId("nova"),
        user_id=UserId("alice"),
        formed_at=said,
        created_at=said,
        updated_at=said,
        embedding_model="keyword-hash",
        embedding_dim=256,
        supersede_key=key,
    )


async def test_the_tool_says_which_result_is_outdated_and_by_what() -> None:
    memory = _service()
    await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1)])
    found = await _search(memory, "What car does Alice drive?")
    text = render_results(["What car does Alice drive?"], found, NOW)
    assert text.splitlines()[1:] == [
        f"- [user] {TESLA} (1d ago)",
        f"- [user] {HONDA} (90d ago; outdated by the newer: {TESLA})",
    ]


async def test_a_decay_by_age_ranks_newer_facts_higher() -> None:
    orders = []
    for half_life in (None, 7.0):
        memory = _service(newer_first=False, age_half_life_days=half_life)
        await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1), _item(CAT, 2)])
        found = await _search(memory, "What car does Alice drive?")
        orders.append([r.fact.content for r in found.results][:2])
    assert orders == [[HONDA, TESLA], [TESLA, HONDA]]


def _default(**search: Any) -> MemoryService:
    settings = MemorySettings(search=SearchSettings(**search))
    return MemoryService(
        memory_stores(), KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW), settings
    )


async def test_by_default_a_changed_attribute_without_a_key_is_one_thing() -> None:
    memory = _default()
    await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1), _item(CAT, 5)])
    found = await _search(memory, "What car does Alice drive?")
    assert _shown(found)[:2] == [(TESLA, None), (HONDA, TESLA)]


async def test_without_the_attribute_rule_only_facts_of_one_key_are_one_thing() -> None:
    memory = _default(same_attribute=False)
    await memory.admin.add_facts([_item(HONDA, 90), _item(TESLA, 1), _item(CAT, 5)])
    found = await _search(memory, "What car does Alice drive?")
    assert _shown(found)[:2] == [(HONDA, None), (TESLA, None)]
