"""Every change the service makes is in the next context: the revision check alone sees it.

The context cache once also dropped entries by hand after each change made in this process.
These tests hold without that: a cached context is compared with the store's revision
counters on every call, and each change below moves the counter of a key it touched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest

from eden_memory.application.conversation import Conversation
from eden_memory.domain.scopes import AgentMemoryConfig, Scope
from tests.application.story import World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")
Change = Callable[[World, Conversation], Awaitable[object]]


async def _cached() -> tuple[World, Conversation, str]:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("my email is alice@example.com", "a", "b", "c")
    )
    await world.memory.form_memories(conv)
    first = await world.memory.get_context(conv)
    assert (await world.memory.get_context(conv)).from_cache
    return world, conv, first.xml


async def _form_in_the_same_session(world: World, conv: Conversation) -> None:
    world.clock.advance(minutes=1)  # new message ids
    await world.memory.record_messages(conv, world.messages("I work at Acme Corp", "a", "b", "c"))
    await world.memory.form_memories(conv)


async def _add_a_fact(world: World, conv: Conversation) -> None:
    fact = {
        "content": "Alice keeps bees on her roof",
        "scope": Scope.USER,
        "agent_id": "nova",
        "user_id": "alice",
        "formed_at": world.clock.now() - timedelta(minutes=1),
    }
    report = await world.memory.admin.add_facts([fact])
    assert len(report.added) == 1


async def _erase_the_user(world: World, conv: Conversation) -> None:
    await world.memory.admin.erase_user("nova", "alice")


async def _consolidate(world: World, conv: Conversation) -> None:
    outcomes = await world.memory.consolidate(conv, force=True)
    assert any(o.status == "consolidated" for o in outcomes)


CHANGES: list[tuple[Change, str | None, str | None]] = [
    # (change, text the new context must hold, text it must no longer hold)
    (_form_in_the_same_session, "Acme Corp", None),
    (_add_a_fact, "bees on her roof", None),
    (_erase_the_user, None, "alice@example.com"),
]


@pytest.mark.parametrize(
    ("change", "shown", "gone"), CHANGES, ids=lambda c: getattr(c, "__name__", "")
)
async def test_a_change_made_here_is_in_the_next_context(
    change: Change, shown: str | None, gone: str | None
) -> None:
    world, conv, before = await _cached()
    await change(world, conv)
    after = await world.memory.get_context(conv)
    assert not after.from_cache
    if shown is not None:
        assert shown not in before
        assert shown in after.xml
    if gone is not None:
        assert gone in before
        assert gone not in after.xml


async def test_a_consolidation_made_here_is_in_the_next_context() -> None:
    world, conv, _ = await _cached()
    world.clock.advance(minutes=1)
    note = world.messages("please keep answers short", "a", "b", "c")
    await world.memory.record_messages(conv, note)
    await world.memory.form_memories(conv)
    middle = await world.memory.get_context(conv)
    assert (await world.memory.get_context(conv)).from_cache
    await _consolidate(world, conv)
    after = await world.memory.get_context(conv)
    assert not after.from_cache
    assert "Alice wants short answers" in middle.xml
    assert after.xml != middle.xml


async def test_an_import_is_in_the_next_context() -> None:
    world, conv, _ = await _cached()
    lines = [line async for line in world.memory.admin.export("nova")]
    await world.memory.admin.erase_user("nova", "alice")
    emptied = await world.memory.get_context(conv)
    assert "alice@example.com" not in emptied.xml
    assert (await world.memory.get_context(conv)).from_cache
    await world.memory.admin.import_lines(lines)
    after = await world.memory.get_context(conv)
    assert not after.from_cache
    assert "alice@example.com" in after.xml
