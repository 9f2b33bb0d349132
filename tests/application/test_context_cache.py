"""The per-session context cache: served while true, rebuilt when the memory changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from eden_memory.application.context.bounded_cache import BoundedCache
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import ContextSettings, MemorySettings
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
    other = MemoryService(world.stores, world.embedder, world.llm, world.clock)
    key = ScopeKey.user("nova", "alice")
    seen = await other.admin.get_consolidated(key)
    await other.admin.replace_consolidated(key, "Prefers tea", expected_version=seen.version)
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


async def _serve_sessions(
    world: World, sessions: int, every: timedelta, hot: Conversation | None = None
) -> list[bool]:
    """One prompt in each of ``sessions`` new sessions, ``every`` apart (the clock moves
    first); the hot session (if any) asks for its context after each of them. Returns
    whether each hot call was served from the cache."""
    served_hot: list[bool] = []
    for i in range(sessions):
        world.clock.advance(seconds=every.total_seconds())
        conv = world.memory.conversation(AGENT, f"one-off-{i}", [f"user-{i}"])
        await world.memory.get_context(conv)
        if hot is not None:
            served_hot.append((await world.memory.get_context(hot)).from_cache)
    return served_hot


def _cache(world: World) -> BoundedCache[Any, Any]:
    return world.memory._context.cache


async def test_an_hour_of_one_off_sessions_leaves_only_the_last_ttl_of_them_cached() -> None:
    world = make_world(STORY)
    await _serve_sessions(world, 2_000, timedelta(seconds=1.8))  # 2,000 over an hour
    cache = _cache(world)
    ttl = timedelta(seconds=world.memory.settings.context.cache_ttl_seconds)
    assert len(cache) <= ttl / timedelta(seconds=1.8) + 1  # about 167, not 2,000
    oldest = cache.oldest()
    assert oldest is not None
    assert world.clock.now() - oldest < ttl  # nothing expired is held after a call


async def test_the_cache_never_holds_more_than_its_bound() -> None:
    settings = MemorySettings(context=ContextSettings(cache_max_entries=50))
    world = make_world(STORY, settings)
    for _ in range(4):
        await _serve_sessions(world, 100, timedelta(seconds=0.1))  # all within the TTL
        assert len(_cache(world)) == 50


async def test_a_hot_session_stays_cached_while_cold_ones_come_and_go() -> None:
    settings = MemorySettings(context=ContextSettings(cache_max_entries=20))
    world, hot = await _formed_with(settings)
    assert not (await world.memory.get_context(hot)).from_cache
    cached = await _serve_sessions(world, 400, timedelta(seconds=0.5), hot=hot)  # 200 s < TTL
    assert all(cached)
    assert len(_cache(world)) == 20


async def test_a_cache_of_size_zero_caches_nothing() -> None:
    settings = MemorySettings(context=ContextSettings(cache_max_entries=0))
    world, conv = await _formed_with(settings)
    await world.memory.get_context(conv)
    assert not (await world.memory.get_context(conv)).from_cache
    assert len(_cache(world)) == 0


async def _formed_with(settings: MemorySettings) -> tuple[World, Conversation]:
    world = make_world(STORY, settings)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("my email is alice@example.com", "a", "b", "c")
    )
    await world.memory.form_memories(conv)
    return world, conv
