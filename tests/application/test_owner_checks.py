"""Every management path checks the agent of the record it changes (issue 26, item 3).

Two agents share a user id and a session id; each call for ``nova`` is given a record of
``orion``. Each must refuse ("not found" for an id, a clear error for a key of another agent)
and leave orion's memory exactly as it was, on every store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey
from tests.application.stores import StoreMaker
from tests.application.story import World, make_world

Call = Callable[[MemoryService], Awaitable[object]]
ALICE_NOTE = "Alice likes trains"


async def _two_agents(make: StoreMaker) -> World:
    """nova and orion: each a user fact, an agent fact, a buffered note, a blob, a session."""
    world = make_world(stores=await make())
    admin, now = world.memory.admin, world.clock.now()
    for agent in ("nova", "orion"):
        facts: list[dict[str, object]] = [
            {"id": f"{agent}-user", "content": f"{agent}: Alice lives in Oslo", "scope": "user"},
            {"id": f"{agent}-agent", "content": f"{agent}: refunds take 30 days", "scope": "agent"},
        ]
        items = [f | {"agent_id": agent, "user_id": "alice", "formed_at": now} for f in facts]
        items[1].pop("user_id")
        assert (await admin.add_facts(items)).rejected == []
        note = Reflection.in_scope(
            ScopeKey.user(agent, "alice"),
            id=f"{agent}-note",
            content=f"{agent}: {ALICE_NOTE}",
            formed_at=now,
            created_at=now,
        )
        await world.stores.buffers.add_reflections([note])
        await admin.replace_consolidated(
            ScopeKey.user(agent, "alice"), f"{agent} knows Alice.", expected_version=0
        )
        chat = world.memory.conversation(agent, "s1", ["alice"])
        await world.memory.record_messages(chat, world.messages("hello", "there"))
    world.clock.advance(minutes=1)
    return world


async def _orion(world: World) -> list[object]:
    """Everything orion holds: its export (but the header's time) and its session."""
    lines = [line async for line in world.memory.admin.export("orion")][1:]
    session = await world.stores.sessions.get_session("orion", "s1")  # type: ignore[arg-type]
    return [lines, session]


NOT_FOUND: dict[str, Call] = {
    "get_fact": lambda m: m.admin.get_fact("nova", "orion-user"),
    "fact_history": lambda m: m.admin.fact_history("nova", "orion-user"),
    "edit_fact": lambda m: m.admin.edit_fact(
        "nova", "orion-user", "nova wrote this", expected_version=1
    ),
    "edit_agent_fact": lambda m: m.admin.edit_fact(
        "nova", "orion-agent", "nova wrote this", expected_version=1
    ),
    "delete_fact": lambda m: m.admin.delete_fact("nova", "orion-user"),
    "delete_agent_fact": lambda m: m.admin.delete_fact("nova", "orion-agent"),
    "edit_reflection": lambda m: m.admin.edit_reflection(
        "nova", "orion-note", "nova wrote this", expected_version=1
    ),
    "delete_reflection": lambda m: m.admin.delete_reflection("nova", "orion-note"),
}


@pytest.mark.parametrize("name", NOT_FOUND)
async def test_a_call_for_one_agent_never_changes_a_record_of_another(
    make_any_store: StoreMaker, name: str
) -> None:
    world = await _two_agents(make_any_store)
    before = await _orion(world)
    with pytest.raises(NotFoundError, match="agent 'nova' has no"):
        await NOT_FOUND[name](world.memory)
    assert await _orion(world) == before


async def test_listing_one_agents_reflections_by_a_key_of_another_is_refused(
    make_any_store: StoreMaker,
) -> None:
    """Not an empty list: the caller mixed two agents, and should hear so."""
    world = await _two_agents(make_any_store)
    with pytest.raises(InvalidInputError, match=r"key .*'orion'.* agent 'nova'"):
        await world.memory.admin.list_reflections("nova", ScopeKey.user("orion", "alice"))


async def test_erasing_a_user_of_one_agent_keeps_the_same_user_of_another(
    make_any_store: StoreMaker,
) -> None:
    world = await _two_agents(make_any_store)
    before = await _orion(world)
    report = await world.memory.admin.erase_user("nova", "alice")
    assert report.sessions == ["s1"]
    assert await _orion(world) == before
    assert [f.id for f in await world.memory.admin.list_facts("nova")] == ["nova-agent"]


async def test_a_blob_is_replaced_only_under_the_key_it_names(make_any_store: StoreMaker) -> None:
    """A blob is addressed by its key alone, and the key names its agent: nova's key never
    reaches orion's blob, whatever user or session the two share."""
    world = await _two_agents(make_any_store)
    before = await _orion(world)
    updated = await world.memory.admin.replace_consolidated(
        ScopeKey.user("nova", "alice"), "nova rewrote this.", expected_version=1
    )
    assert updated.agent_id == "nova"
    assert await _orion(world) == before
