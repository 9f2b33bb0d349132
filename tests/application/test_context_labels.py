"""The context shows the user's name, each blob's age and the agent's instructions (seed 004)."""

from __future__ import annotations

import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings
from tests.application.story import World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova", memory_instructions="Track the festival & its budget")
TURN = ("please keep answers short", "the Mars festival budget is 50000 dollars", "b", "c")


async def _formed(world: World) -> None:
    conv = world.memory.conversation(AGENT, "s1", ["alice"], user_name="Alice")
    await world.memory.record_messages(conv, world.messages(*TURN))
    await world.memory.end_session(conv)  # consolidates every buffer


async def test_the_users_name_the_blobs_ages_and_the_instructions_are_shown() -> None:
    world = make_world(STORY)
    await _formed(world)
    world.clock.advance(days=3, minutes=1)
    conv = world.memory.conversation(AGENT, "s2", ["alice"], user_name='Alice "Al" Smith')
    root = ET.fromstring((await world.memory.get_context(conv)).xml)
    user = root.find("UserMemory")
    assert user is not None
    assert user.get("name") == 'Alice "Al" Smith'
    for blob in (root.find("UserMemory/Consolidated"), root.find("AgentMemory/Consolidated")):
        assert blob is not None
        assert blob.get("updated") == "3d ago"
    assert root.findtext("AgentMemory/MemoryInstructions") == "Track the festival & its budget"


async def test_another_name_is_not_served_from_the_cache() -> None:
    world = make_world(STORY)
    await _formed(world)
    first = world.memory.conversation(AGENT, "s2", ["alice"], user_name="Alice")
    assert 'name="Alice"' in (await world.memory.get_context(first)).xml
    renamed = world.memory.conversation(AGENT, "s2", ["alice"], user_name="Alicia")
    assert 'name="Alicia"' in (await world.memory.get_context(renamed)).xml


async def test_instructions_can_be_left_out_of_the_context() -> None:
    world = make_world(
        STORY, MemorySettings.model_validate({"context": {"show_instructions": False}})
    )
    await _formed(world)
    xml = (await world.memory.get_context(world.memory.conversation(AGENT, "s2", ["alice"]))).xml
    assert "<AgentMemory>" in xml
    assert "MemoryInstructions" not in xml


async def test_the_users_name_is_never_stored(tmp_path: Path) -> None:
    async with await open_sqlite(tmp_path / "memory.db") as stores:
        world = make_world(STORY, stores=stores)
        await _formed(world)
        state = await stores.sessions.get_session("nova", "s1")  # type: ignore[arg-type]
        assert state is not None
        assert state.profile.user_name is None
    with sqlite3.connect(tmp_path / "memory.db") as conn:
        [(profile,)] = conn.execute("SELECT profile FROM sessions").fetchall()
    assert "Alice" not in profile
