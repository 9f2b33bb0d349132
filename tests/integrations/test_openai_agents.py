"""The OpenAI Agents SDK integration with a scripted model: context, tool, recording."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import pytest
from agents import Agent, Runner

from eden_memory.adapters.integrations.openai_agents import AgentsMemory
from eden_memory.domain.errors import MissingExtraError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world
from tests.integrations.agents_fake import ScriptedModel, call, text

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


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "agents", None)
    monkeypatch.delitem(sys.modules, "eden_memory.adapters.integrations.openai_agents")
    with pytest.raises(MissingExtraError, match=r'pip install -e "\.\[openai-agents\]"'):
        importlib.import_module("eden_memory.adapters.integrations.openai_agents")
