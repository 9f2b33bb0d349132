"""No console form changes a record of another agent than the one it names (issue 26, item 3),
even when the console was opened on both agents: each write checks the record's own agent."""

from __future__ import annotations

import asyncio

import pytest

from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey
from tests.application.story import World
from tests.console.client import ORIGIN, console, csrf_of, sample_world, signed_in

ORION_ALICE = ScopeKey.user("orion", "alice")
NOVA_ALICE = ScopeKey.user("nova", "alice")


@pytest.fixture
def world() -> World:
    """The sample, plus orion's own note and blob about alice (nova has both too)."""
    world = sample_world()
    now = world.clock.now()
    note = Reflection.in_scope(
        ORION_ALICE, id="r-orion", content="Orion's note", formed_at=now, created_at=now
    )
    asyncio.run(world.stores.buffers.add_reflections([note]))
    asyncio.run(
        world.memory.admin.replace_consolidated(ORION_ALICE, "Orion's blob.", expected_version=0)
    )
    return world


def _orion(world: World) -> list[str]:
    async def lines() -> list[str]:
        return [line async for line in world.memory.admin.export("orion")][1:]

    return asyncio.run(lines())


FORMS = [
    ("/fact/edit", {"agent": "nova", "id": "f-orion", "content": "leaked", "version": "1"}),
    ("/fact/delete", {"agent": "nova", "id": "f-orion"}),
    (
        "/reflection/edit",
        {"agent": "nova", "id": "r-orion", "content": "leaked", "version": "1"},
    ),
    ("/reflection/delete", {"agent": "nova", "id": "r-orion"}),
]


@pytest.mark.parametrize("agents", [("nova",), ("nova", "orion")])
@pytest.mark.parametrize(("path", "form"), FORMS)
def test_a_form_for_one_agent_never_changes_a_record_of_another(
    world: World, agents: tuple[str, ...], path: str, form: dict[str, str]
) -> None:
    before = _orion(world)
    client = signed_in(console(world, agents=agents))
    csrf = csrf_of(client.get("/agent?agent=nova").text)
    answer = client.post(path, data={"csrf": csrf, **form}, headers={"origin": ORIGIN})
    assert answer.status_code == 404
    assert "agent &#39;nova&#39; has no" in answer.text
    assert _orion(world) == before
    note = asyncio.run(world.stores.buffers.get_reflection(ReflectionId("r-orion")))
    assert note is not None
    assert note.content == "Orion's note"


def test_a_blob_form_changes_only_the_blob_of_the_agent_it_names(world: World) -> None:
    """A blob is addressed by agent, scope and owner: nova's alice is not orion's alice."""
    before = _orion(world)
    client = signed_in(console(world, agents=("nova", "orion")))
    csrf = csrf_of(client.get("/agent?agent=nova").text)
    form = {
        "agent": "nova",
        "scope": "user",
        "user": "alice",
        "content": "x",
        "understood": "yes",
        "version": str(asyncio.run(world.memory.admin.get_consolidated(NOVA_ALICE)).version),
    }
    answer = client.post("/blob/replace", data={"csrf": csrf, **form}, headers={"origin": ORIGIN})
    assert answer.status_code == 303
    assert _orion(world) == before
