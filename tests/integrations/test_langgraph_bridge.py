"""Sync calls reach the memory on its own event loop, from any thread but that loop's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from eden_memory.adapters.integrations.langgraph import EdenStore, LoopBridge, MemoryThread
from eden_memory.domain.errors import ConfigurationError
from tests.application.story import make_world

ALICE = ("nova", "user", "alice")


async def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


async def test_a_sync_call_from_another_thread_runs_on_the_memorys_loop() -> None:
    bridge = LoopBridge()  # made on this loop
    ran_on = await asyncio.to_thread(bridge.run, _loop)
    assert ran_on is asyncio.get_running_loop()


async def test_a_sync_call_on_the_memorys_own_loop_says_what_to_do() -> None:
    store = EdenStore(make_world().memory)
    with pytest.raises(ConfigurationError, match=r"aput, asearch\).*asyncio\.to_thread"):
        store.put(ALICE, "home", {"content": "Alice lives in Oslo"})
    assert await store.aget(ALICE, "home") is None


def test_a_store_made_outside_any_loop_needs_one_named() -> None:
    store = EdenStore(make_world().memory)
    with pytest.raises(ConfigurationError, match="pass loop="):
        store.get(ALICE, "home")


def test_a_closed_loop_is_named_not_waited_for() -> None:
    loop = asyncio.new_event_loop()
    loop.close()
    with pytest.raises(ConfigurationError, match="not running"):
        LoopBridge(loop).run(_loop)


def test_a_memory_thread_runs_sync_and_async_callers_on_its_loop() -> None:
    exited: list[asyncio.AbstractEventLoop] = []

    @asynccontextmanager
    async def opened() -> AsyncIterator[str]:
        yield "memory"
        exited.append(asyncio.get_running_loop())

    with MemoryThread() as thread:
        assert thread.open(opened()) == "memory"
        bridge = LoopBridge(thread.loop)
        assert bridge.run(_loop) is thread.loop  # from a thread with no loop

        async def from_another_loop() -> asyncio.AbstractEventLoop:
            return await bridge.arun(_loop)

        assert asyncio.run(from_another_loop()) is thread.loop
        assert exited == []
    assert exited == [thread.loop]  # closing the thread closed what it opened
    assert thread.loop.is_closed()


def test_a_store_on_a_memory_thread_serves_a_sync_host() -> None:
    with MemoryThread() as thread:
        world = make_world()
        store = EdenStore(world.memory, loop=thread.loop)
        store.put(ALICE, "home", {"content": "Alice lives in Oslo"})
        [found] = store.search(ALICE, query="where does Alice live")
    assert found.value == {"content": "Alice lives in Oslo"}
