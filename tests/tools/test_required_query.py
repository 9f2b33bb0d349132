"""Every surface that offers ``search_facts`` tells the model that ``query`` is required.

A schema with an empty ``required`` says ``{}`` is a valid call: pydantic-ai's ``TestModel``
(which fills in only required arguments) then sent ``{}`` and got "query is required" back,
the first thing docs/pydantic-ai.md printed. The older ``queries`` is still accepted.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from mcp import Client
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

from eden_memory.adapters.integrations.google_adk import EdenMemoryService
from eden_memory.adapters.integrations.google_adk_agent import MemoryTool
from eden_memory.adapters.integrations.langgraph import GraphMemory
from eden_memory.adapters.integrations.openai_agents import AgentsMemory
from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.server import build_server
from eden_memory.adapters.tools.search_facts import FORMATS, SearchFactsHandler, definition
from eden_memory.application.conversation import Conversation
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world
from tests.mcp.test_mcp_server import _text

AGENT = AgentMemoryConfig("nova")
FACTS = {"My email is alice@example.com.": [("Alice's email is alice@example.com", "user")]}


async def _world() -> tuple[World, Conversation]:
    world = make_world(Story(facts=FACTS))
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(chat, world.messages(*FACTS))
    await world.memory.end_session(chat)
    return world, chat


def _schema_of(exported: dict[str, Any]) -> dict[str, Any]:
    for key in ("parameters", "parameters_json_schema", "input_schema"):
        if key in exported:
            schema: dict[str, Any] = exported[key]
            return schema
    return exported["function"]["parameters"] if "function" in exported else exported


def _requires_query_only(schema: dict[str, Any]) -> None:
    assert schema["required"] == ["query"]
    assert set(schema["properties"]) == {"query", "top_k", "debug"}  # one name for the queries


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_export_format_requires_query(fmt: Any) -> None:
    _requires_query_only(_schema_of(definition(fmt)))


async def test_the_integrations_and_the_mcp_server_require_query() -> None:
    world, chat = await _world()
    declaration = MemoryTool(EdenMemoryService(world.memory))._get_declaration()
    langchain_tool = convert_to_openai_tool(GraphMemory(world.memory, chat).tool())
    schemas = {
        "openai-agents": AgentsMemory(world.memory, chat).tools()[0].params_json_schema,
        "langgraph": langchain_tool["function"]["parameters"],
        "adk": declaration.parameters_json_schema,
    }
    model = TestModel(call_tools=[])
    await Agent(model, capabilities=[EdenMemory(world.memory, chat, record=False)]).run("hi")
    assert model.last_model_request_parameters is not None
    [tool] = model.last_model_request_parameters.function_tools
    schemas["pydantic-ai"] = tool.parameters_json_schema
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        [mcp] = [t for t in (await client.list_tools()).tools if t.name == "search_facts"]
    for name, schema in schemas.items():
        assert isinstance(schema, dict), name
        _requires_query_only(schema)
    assert mcp.input_schema["required"] == ["query"]  # and the identity fields, optional
    assert "queries" not in mcp.input_schema["properties"]


async def test_pydantic_ais_test_model_gets_a_search_result_not_an_error() -> None:
    world, chat = await _world()
    agent = Agent(TestModel(), capabilities=[EdenMemory(world.memory, chat, record=False)])
    result = await agent.run("What is my email?")
    [call] = [p for m in result.all_messages() for p in m.parts if p.part_kind == "tool-call"]
    assert call.args_as_dict()["query"]  # it filled in the required argument
    [returned] = [p for m in result.all_messages() for p in m.parts if p.part_kind == "tool-return"]
    assert "error" not in returned.model_response_str()
    assert returned.model_response_str().startswith("No facts found for")  # a search was run
    assert returned.model_response_str().endswith(  # and why: its query "a" matched nothing
        ": nothing stored about this (no visible fact passed the retrievers' floors)."
    )


@pytest.mark.parametrize("arguments", [{"queries": ["email"]}, {"queries": "email"}])
async def test_the_older_name_is_still_accepted_everywhere(arguments: dict[str, Any]) -> None:
    world, chat = await _world()
    reply = await SearchFactsHandler(world.memory, chat).handle(
        {"name": "search_facts", "args": arguments}
    )
    assert "Alice's email is alice@example.com" in reply.text
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        found = await client.call_tool("search_facts", arguments)
        both = await client.call_tool("search_facts", {"query": ["a"], **arguments})
    assert not found.is_error
    assert "Alice's email is alice@example.com" in _text(found)
    assert both.is_error
    assert "not both" in _text(both)
