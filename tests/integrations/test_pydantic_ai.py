"""The pydantic-ai capability with pydantic-ai's own offline models: context, tool, recording."""

from __future__ import annotations

import importlib
import json
import sys

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
from eden_memory.domain.errors import MissingExtraError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world

AGENT = AgentMemoryConfig("nova")
FACTS = {"I live in Oslo.": [("Alice lives in Oslo", "user")]}


async def test_a_run_is_recorded_and_a_later_run_sees_and_searches_the_memory() -> None:
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    agent = Agent(TestModel(call_tools=[]), capabilities=[EdenMemory(world.memory, monday)])
    await agent.run("I live in Oslo.")
    await world.memory.end_session(monday)

    seen: dict[str, object] = {}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        seen["instructions"] = last.instructions
        seen["tools"] = [t.name for t in info.function_tools]
        if not any(p.part_kind == "tool-return" for p in last.parts):
            args = json.dumps({"query": ["Alice lives"]})
            return ModelResponse(parts=[ToolCallPart("search_facts", args, "c1")])
        return ModelResponse(parts=[TextPart(f"memory says: {last.parts[0].content}")])  # type: ignore[union-attr]

    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    agent = Agent(FunctionModel(model), capabilities=[EdenMemory(world.memory, tuesday)])
    result = await agent.run("Where do I live?")

    assert "Alice lives in Oslo" in str(seen["instructions"])  # the context, as instructions
    assert seen["tools"] == ["search_facts"]
    assert "- [user] Alice lives in Oslo" in result.output  # the tool's answer
    state = (await world.memory.record_messages(tuesday, [])).state
    assert state is not None
    assert state.pending_messages == 2  # the prompt and the answer; not memory's own tool


async def test_the_tool_schema_is_the_libraries_and_bad_arguments_reach_the_model() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    model = TestModel(call_tools=["search_facts"])
    agent = Agent(model, capabilities=[EdenMemory(world.memory, chat, record=False)])
    await agent.run("hello")
    [tool] = model.last_model_request_parameters.function_tools  # type: ignore[union-attr]
    assert tool.parameters_json_schema["properties"]["top_k"]["maximum"] == 50
    state = (await world.memory.record_messages(chat, [])).state
    assert state is not None
    assert state.pending_messages == 0  # record=False


async def test_no_tool_when_the_agent_has_no_searchable_memory() -> None:
    world = make_world()
    off = AgentMemoryConfig("nova", user_memory_enabled=False, agent_memory_enabled=False)
    chat = world.memory.conversation(off, "s1", ["alice"])
    model = TestModel()
    agent = Agent(model, capabilities=[EdenMemory(world.memory, chat)])
    await agent.run("hello")
    assert model.last_model_request_parameters is not None
    assert model.last_model_request_parameters.function_tools == []


async def test_an_existing_agent_takes_the_capability_per_run() -> None:
    world = make_world()
    agent = Agent(TestModel(call_tools=[]))  # built once, for every conversation
    for user in ("alice", "bob"):
        chat = world.memory.conversation(AGENT, f"s-{user}", [user])
        await agent.run("hello", capabilities=[EdenMemory(world.memory, chat)])
        state = (await world.memory.record_messages(chat, [])).state
        assert state is not None
        assert state.pending_messages == 2


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pydantic_ai", None)
    monkeypatch.delitem(sys.modules, "eden_memory.adapters.integrations.pydantic_ai")
    with pytest.raises(MissingExtraError, match=r'pip install -e "\.\[pydantic-ai\]"'):
        importlib.import_module("eden_memory.adapters.integrations.pydantic_ai")
