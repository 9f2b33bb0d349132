"""The per-session context cache: served while true, rebuilt when the memory changed."""

from __future__ import annotations

from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from tests.application.story import World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")


async def _formed() -> tuple[World, Conversation]:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("my email is alice@example.com", "a", "b", "c")
    )
    await world.memory.form_memories(conv)
    return world, conv


async def test_a_second_call_is_served_from_the_cache() -> None:
    world, conv = await _formed()
    first = await world.memory.get_context(conv)
    second = await world.memory.get_context(conv)
    assert not first.from_cache
    assert second.from_cache
    assert second.xml == first.xml


async def test_the_cache_expires_after_its_ttl() -> None:
    world, conv = await _formed()
    await world.memory.get_context(conv)
    world.clock.advance(minutes=5)
    assert not (await world.memory.get_context(conv)).from_cache


async def test_a_change_from_another_process_refreshes_the_context_early() -> None:
    world, conv = await _formed()
    before = await world.memory.get_context(conv)
    # A second service on the same store stands for another worker process.
    other = MemoryService(world.store, world.embedder, world.llm, world.clock)
    await other.management.replace_consolidated(ScopeKey.user("nova", "alice"), "Prefers tea")
    after = await world.memory.get_context(conv)
    assert not after.from_cache
    assert "Prefers tea" in after.xml
    assert "Prefers tea" not in before.xml


async def test_a_change_in_another_session_refreshes_the_context() -> None:
    world, conv = await _formed()
    await world.memory.get_context(conv)
    other = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(other, world.messages("I work at Acme Corp", "a", "b", "c"))
    await world.memory.form_memories(other)
    after = await world.memory.get_context(conv)
    assert not after.from_cache
    assert "Alice works at Acme Corp" in after.xml


async def test_nothing_remembered_gives_an_empty_context() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "empty", ["zoe"])
    assert (await world.memory.get_context(conv)).xml == ""
