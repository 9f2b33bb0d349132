"""Facts and reflections, each switchable on its own (seeds 000/001 §1.1, §8.1)."""

from __future__ import annotations

import pytest

from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import MemorySettings
from tests.application.story import World, make_world, purposes
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")
TURN = (
    "my email is alice@example.com",
    "please keep answers short",
    "the Mars festival budget is 50000 dollars",
    "b",
)


def world_with(**switches: dict[str, bool]) -> World:
    return make_world(STORY, MemorySettings.model_validate(switches))


async def _one_session(world: World, agent: AgentMemoryConfig = AGENT) -> str:
    conv = world.memory.conversation(agent, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*TURN))
    await world.memory.end_session(conv)
    return (await world.memory.get_context(world.memory.conversation(agent, "s2", ["alice"]))).xml


async def test_with_facts_off_reflections_are_formed_and_shown_and_no_fact_is() -> None:
    world = world_with(facts={"enabled": False})
    xml = await _one_session(world)
    asked = purposes(world.llm.requests)
    assert asked.get("fact_extraction") is None
    assert asked["reflection_extraction"] == 1
    assert "Alice wants short answers" in xml
    assert "<Facts>" not in xml
    for key in (ScopeKey.agent("nova"), ScopeKey.user("nova", "alice")):
        assert await world.stores.fact_reads.count_facts(key) == 0


async def test_with_facts_off_search_facts_is_neither_offered_nor_answered() -> None:
    world = world_with(facts={"enabled": False})
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    assert not world.memory.search_offered(conv)
    with pytest.raises(InvalidInputError, match="not offered: facts are off"):
        await world.memory.search_facts(conv, ["email"])


async def test_with_reflections_off_facts_are_formed_shown_and_searched_and_no_note_is() -> None:
    world = world_with(reflections={"enabled": False})
    xml = await _one_session(world)
    asked = purposes(world.llm.requests)
    assert asked.get("reflection_extraction") is None
    assert asked.get("consolidation") is None  # not even the session end's forced one
    assert "Alice's email is alice@example.com" in xml
    for tag in ("<AgentMemory>", "<UserMemory>", "<SessionMemory>"):
        assert tag not in xml
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    assert world.memory.search_offered(conv)
    found = await world.memory.search_facts(conv, ["Alice email"])
    assert [r.fact.content for r in found.results][:1] == ["Alice's email is alice@example.com"]
    assert await world.stores.buffers.unabsorbed(list(conv.scopes(True).keys())) == []


async def test_an_agent_may_switch_a_subsystem_off_for_itself() -> None:
    world = make_world(STORY)
    no_facts = AgentMemoryConfig("quiet", settings=AgentSettings.of({"facts": {"enabled": False}}))
    assert "<Facts>" not in await _one_session(world, no_facts)
    assert "<Facts>" in await _one_session(world, AGENT)
    assert not world.memory.search_offered(world.memory.conversation(no_facts, "s1", ["alice"]))
