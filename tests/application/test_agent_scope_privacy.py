"""Agent memory, shown to every user, keeps no user's identifying details (issue 40).

The reproduction: a real small model filed "Alice is the designer at Acme Studio and her
email address is alice@acme.example" as the agent's own note, and bob's context showed it;
another run filed bob's phone number at the agent level; a quickstart blob "remembers that
Alice ordered #4417"; a consolidation wrote a "$50,000" budget no conversation gave. The
same answers are scripted here, on every store.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from pydantic import BaseModel

from eden_memory.domain.ids import AgentId
from eden_memory.domain.scopes import Scope
from eden_memory.ports.llm import LLMRequest
from eden_memory.testing import ScriptedLLM
from tests.application.stores import StoreMaker
from tests.application.story import Story, World, make_world
from tests.application.test_reliability import AGENT, EAGER

ALICE_SAYS = "Hi, I'm Alice, the designer at Acme Studio. My email is alice@acme.example."
BOB_SAYS = "Bob here, sound engineer for Aurora. My phone is +33 6 12 34 56 78."
BUDGET = "We are organising the Aurora festival. The budget is 40000 euros."
ALICE_NOTE = "Alice is the designer at Acme Studio and her email address is alice@acme.example"
BOB_NOTE = "Bob's phone number is +33 6 12 34 56 78"
ORDER_NOTE = "The agent remembers that Alice ordered #4417"
PROJECT_NOTE = "Current project: organising the Aurora festival"
STORY = Story(
    facts={
        ALICE_SAYS: [("Alice's email is alice@acme.example", "agent")],
        BOB_SAYS: [("Bob's phone number is +33 6 12 34 56 78", "agent")],
        BUDGET: [("The Aurora festival budget is 40000 euros", "agent")],
    },
    notes={
        ALICE_SAYS: [("agent", ALICE_NOTE), ("agent", ORDER_NOTE)],
        BOB_SAYS: [("agent", BOB_NOTE)],
        BUDGET: [("agent", PROJECT_NOTE)],
    },
)


def _world(stores: Any, consolidation: Any = None) -> World:
    by_purpose = {"consolidation": consolidation} if consolidation is not None else {}
    llm = ScriptedLLM(STORY, by_purpose=by_purpose)
    return make_world(STORY, EAGER, stores=stores, llm=llm)


async def _agent_memory(world: World) -> str:
    memory = world.memory
    notes = await memory.admin.list_reflections("nova", include_absorbed=True)
    facts = await memory.admin.list_facts("nova")
    blobs = await world.stores.note_records.list_consolidated(AgentId("nova"))
    return "\n".join(
        [
            *(n.content for n in notes if n.scope is Scope.AGENT),
            *(f.content for f in facts if f.scope is Scope.AGENT),
            *(b.content for b in blobs if b.scope is Scope.AGENT),
        ]
    )


async def test_a_users_details_filed_as_the_agents_move_to_that_users_own_memory(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    world = _world(await make_store())
    conv = world.memory.conversation(AGENT, "alice-1", ["alice"])
    await world.memory.record_messages(conv, world.messages(ALICE_SAYS, BUDGET))
    report = await world.memory.end_session(conv)

    assert report is not None
    assert {m.content for m in report.reflections_moved} == {ALICE_NOTE, ORDER_NOTE}
    assert all("kept in the user's own memory" in m.why for m in report.reflections_moved)
    assert [m.content for m in report.facts_moved] == ["Alice's email is alice@acme.example"]
    logged = [r.getMessage() for r in caplog.records]
    assert sum("moved from agent to user memory" in line for line in logged) == 3
    assert not any("alice@acme.example" in line or "4417" in line for line in logged)
    shared = await _agent_memory(world)
    assert PROJECT_NOTE in shared
    assert "alice@acme.example" not in shared
    assert "#4417" not in shared
    bob = await world.memory.get_context(world.memory.conversation(AGENT, "bob-1", ["bob"]))
    assert "alice@acme.example" not in bob.xml
    assert "4417" not in bob.xml
    alice = await world.memory.get_context(world.memory.conversation(AGENT, "alice-2", ["alice"]))
    assert "alice@acme.example" in alice.xml  # kept, as hers


async def test_in_a_group_a_users_details_filed_as_the_agents_are_refused(
    make_store: StoreMaker,
) -> None:
    world = _world(await make_store())
    conv = world.memory.conversation(AGENT, "team-1", ["alice", "bob"])
    said = [*world.messages(ALICE_SAYS), *world.messages(BOB_SAYS, author="bob", start=1)]
    await world.memory.record_messages(conv, said)
    report = await world.memory.end_session(conv)

    assert report is not None
    refused = {r.content: r.why for r in report.reflections_rejected}
    assert set(refused) >= {ALICE_NOTE, BOB_NOTE, ORDER_NOTE}
    assert "no single user" in refused[BOB_NOTE]
    assert "phone number" in refused[BOB_NOTE]
    assert report.reflections_moved == []
    assert report.facts_moved == []
    shared = await _agent_memory(world)
    assert "+33" not in shared
    assert "alice@acme.example" not in shared


def _blob(text: str) -> Any:
    async def answer(request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
        shown = request.prompt
        return {"content": text if "Aurora" in shown else shown.split("\n")[-3].lstrip("- ")}

    return answer


async def test_an_agent_blob_with_a_users_details_is_refused_and_nothing_is_absorbed(
    make_store: StoreMaker,
) -> None:
    world = _world(await make_store(), _blob(f"Projects:\n- Aurora festival.\n- {ALICE_NOTE}"))
    conv = world.memory.conversation(AGENT, "alice-1", ["alice"])
    await world.memory.record_messages(conv, world.messages(BUDGET))
    report = await world.memory.end_session(conv)

    assert report is not None
    agent = [o for o in report.consolidations if o.scope_key.startswith("agent")]
    assert [(o.status, o.version, o.absorbed) for o in agent] == [("rejected", None, 0)]
    assert "email address" in agent[0].error
    assert "alice@acme.example" not in agent[0].error
    notes = await world.memory.admin.list_reflections("nova")
    assert PROJECT_NOTE in {n.content for n in notes if n.scope is Scope.AGENT}  # unabsorbed
    assert "alice@acme.example" not in await _agent_memory(world)


async def test_a_blob_with_a_budget_no_note_gave_is_refused_and_kept_as_it_was(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    world = _world(await make_store(), _blob("Projects:\n- Aurora festival, budget $50,000"))
    conv = world.memory.conversation(AGENT, "alice-1", ["alice"])
    await world.memory.record_messages(conv, world.messages(BUDGET))
    with caplog.at_level(logging.DEBUG):
        report = await world.memory.end_session(conv)
    # The refusal names the amount to the caller, never to the log.
    assert "rejected" in caplog.text
    assert "50,000" not in caplog.text

    assert report is not None
    agent = [o for o in report.consolidations if o.scope_key.startswith("agent")]
    assert agent[0].status == "rejected"
    assert "specifics none of its inputs gave" in agent[0].error
    assert "50,000" in agent[0].error
    blobs = await world.stores.note_records.list_consolidated(AgentId("nova"))
    assert all("50,000" not in b.content for b in blobs)
