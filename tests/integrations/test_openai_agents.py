"""The OpenAI Agents SDK integration with a scripted model: context, tool, recording."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import pytest
from agents import Agent, RunContextWrapper, Runner, TResponseInputItem

from eden_memory.adapters.integrations.openai_agents import AgentsMemory
from eden_memory.domain.errors import InvalidInputError, MissingExtraError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world
from tests.integrations.agents_fake import AnsweringModel, ScriptedModel, call, text

AGENT = AgentMemoryConfig("nova")
FACTS = {"I live in Oslo.": [("Alice lives in Oslo", "user")]}


def _answer_from_tool(instructions: str | None, items: list[Any]) -> list[Any]:
    output = next(i["output"] for i in items if i.get("type") == "function_call_output")
    return text(f"memory says: {output}")


async def test_a_run_is_recorded_and_a_later_run_sees_and_searches_the_memory() -> None:
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    first = AgentsMemory(world.memory, monday)
    model = ScriptedModel(lambda i, items: text("Noted."))
    agent = first.attach(Agent(name="helper", instructions="Be brief.", model=model))
    await first.record(await Runner.run(agent, "I live in Oslo."))
    await world.memory.end_session(monday)

    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    second = AgentsMemory(world.memory, tuesday)
    model = ScriptedModel(
        lambda i, items: call("search_facts", json.dumps({"query": "Alice lives"})),
        _answer_from_tool,
    )
    agent = second.attach(Agent(name="helper", instructions="Be brief.", model=model))
    result = await Runner.run(agent, "Where do I live?")
    recorded = await second.record(result)

    assert model.instructions[0] is not None
    assert model.instructions[0].startswith("Be brief.\n\n<MemoryContext>")
    assert "Alice lives in Oslo" in model.instructions[0]
    assert model.tools[0] == ["search_facts"]
    assert "- [user] Alice lives in Oslo" in result.final_output
    assert recorded.state is not None
    assert recorded.state.pending_messages == 2  # the question and the answer only


async def _remembering() -> tuple[World, AgentsMemory, str]:
    """Alice's memory after a first session, and the context her next prompt gets."""
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    await world.memory.record_messages(monday, [{"role": "user", "content": "I live in Oslo."}])
    await world.memory.end_session(monday)
    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    xml = (await world.memory.get_context(tuesday)).xml
    assert "Alice lives in Oslo" in xml
    return world, AgentsMemory(world.memory, tuesday), xml


def _for_user(ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
    return f"You are {agent.name}; the user is {ctx.context['name']}."


async def _for_user_async(ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
    return _for_user(ctx, agent)


class ForUser:
    async def __call__(self, ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
        return _for_user(ctx, agent)


@pytest.mark.parametrize(
    "own", [_for_user, _for_user_async, ForUser()], ids=["sync", "async", "object"]
)
async def test_attach_keeps_dynamic_instructions_and_puts_the_context_after_them(
    own: Any,
) -> None:
    _, memory_for, xml = await _remembering()
    model = AnsweringModel()
    agent = memory_for.attach(Agent(name="nova", instructions=own, model=model))
    await Runner.run(agent, "Hello.", context={"name": "Alice"})
    assert model.instructions == [f"You are nova; the user is Alice.\n\n{xml}"]


async def test_string_instructions_and_none_are_kept_exactly() -> None:
    _, memory_for, xml = await _remembering()
    for own, expected in (("Be brief.", f"Be brief.\n\n{xml}"), (None, xml)):
        model = AnsweringModel()
        await Runner.run(
            memory_for.attach(Agent(name="nova", instructions=own, model=model)), "Hi."
        )
        assert model.instructions == [expected]


def test_attach_refuses_instructions_it_cannot_keep() -> None:
    world = make_world()
    memory_for = AgentsMemory(world.memory, world.memory.conversation(AGENT, "s1", ["alice"]))

    def one_argument(ctx: Any) -> str:
        return "?"

    with pytest.raises(InvalidInputError, match=r"exactly 2 arguments .* takes 1"):
        memory_for.attach(Agent(name="nova", instructions=one_argument))  # type: ignore[arg-type]
    odd = Agent(name="nova")
    odd.instructions = 42  # type: ignore[assignment]  # the SDK refuses it at construction
    with pytest.raises(InvalidInputError, match=r"a string or a function .* not int"):
        memory_for.attach(odd)
    attached = memory_for.attach(Agent(name="nova", instructions="Be brief."))
    with pytest.raises(InvalidInputError, match="already has eden-memory attached"):
        memory_for.attach(attached)


async def test_record_of_a_run_continued_from_to_input_list_records_only_the_new_turn() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    memory_for = AgentsMemory(world.memory, chat)
    agent = memory_for.attach(Agent(name="nova", model=AnsweringModel()))
    first = await Runner.run(agent, "I live in Oslo.")
    await memory_for.record(first)
    new: TResponseInputItem = {"role": "user", "content": "Thanks."}
    then = [*first.to_input_list(), new]
    recorded = await memory_for.record(await Runner.run(agent, then))
    assert recorded.messages == 2
    assert recorded.state is not None
    assert recorded.state.pending_messages == 4


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "agents", None)
    monkeypatch.delitem(sys.modules, "eden_memory.adapters.integrations.openai_agents")
    with pytest.raises(MissingExtraError, match=r'pip install -e "\.\[openai-agents\]"'):
        importlib.import_module("eden_memory.adapters.integrations.openai_agents")
