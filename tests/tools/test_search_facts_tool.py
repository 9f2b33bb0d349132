"""The search_facts tool: one definition in every format, a handler that never crashes a loop."""

from __future__ import annotations

import json

import pytest
from google.genai import types
from pydantic import ValidationError

from eden_memory.adapters.tools.search_facts import (
    DESCRIPTION,
    FORMATS,
    SearchFactsHandler,
    arguments_model,
    definition,
    gemini_declaration,
    parameters,
    tools_for,
)
from eden_memory.application.conversation import Conversation
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world

FACTS = {"my email is alice@example.com": [("Alice's email is alice@example.com", "user")]}


async def _world() -> tuple[World, Conversation]:
    world = make_world(Story(facts=FACTS))
    conv = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FACTS))
    await world.memory.end_session(conv)  # forms even a short session
    return world, conv


def test_every_format_carries_the_same_limits() -> None:
    for fmt in FORMATS:
        text = json.dumps(definition(fmt))
        assert "search_facts" in text
        assert '"maximum": 50' in text or '"maximum": 50,' in text
    gemini = types.FunctionDeclaration(**gemini_declaration())
    assert gemini.parameters_json_schema == parameters()


def test_the_schema_is_the_arguments_model_and_requires_query() -> None:
    schema = parameters()
    assert set(schema["properties"]) == {"query", "top_k", "debug"}
    assert schema["required"] == ["query"]
    assert schema["additionalProperties"] is False
    assert "`query` is required" in DESCRIPTION
    model = arguments_model()
    assert model.model_validate({"query": ["a"]}).model_dump()["top_k"] == 10
    assert model.model_validate({"queries": "a"}).model_dump()["query"] == "a"  # older name
    with pytest.raises(ValidationError, match="query"):
        model.model_validate({})
    with pytest.raises(ValidationError, match="at most 3 items"):
        model.model_validate({"query": ["a", "b", "c", "d"]})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        model.model_validate({"query": ["a"], "limit": 3})


def _as_query(call: object) -> object:
    """The same call with the specification's argument name, ``query``."""
    if isinstance(call, types.FunctionCall):
        return types.FunctionCall(name="search_facts", args={"query": ["email"]}, id="c1")
    return json.loads(json.dumps(call).replace("queries", "query"))


CALLS = [
    {
        "type": "function_call",
        "name": "search_facts",
        "call_id": "c1",
        "arguments": '{"queries": ["email"]}',
    },
    {
        "id": "c1",
        "type": "function",
        "function": {"name": "search_facts", "arguments": '{"queries": ["email"]}'},
    },
    {"name": "search_facts", "args": {"queries": ["email"]}, "id": "c1"},
    {"type": "tool_use", "id": "c1", "name": "search_facts", "input": {"queries": ["email"]}},
    types.FunctionCall(name="search_facts", args={"queries": ["email"]}, id="c1"),
]


@pytest.mark.parametrize("call", CALLS)
async def test_a_call_in_any_format_finds_the_fact(call: object) -> None:
    world, conv = await _world()
    reply = await SearchFactsHandler(world.memory, conv).handle(call)
    assert not reply.is_error, reply.text
    assert reply.call_id == "c1"
    assert "- [user] Alice's email is alice@example.com (" in reply.text


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ("{not json", "not valid JSON"),
        ("[" * 5000, "not valid JSON (nested too deep)"),
        ("{}", "query is required"),
        ('{"query": 5}', "list of 1 to 3"),
        ('{"query": ["a"], "queries": ["b"]}', "not both"),
        ('{"queries": ["a", "b", "c", "d"]}', "1 to 3 queries"),
        ('{"queries": ["a"], "top_k": 500}', "top_k must be an integer from 1 to 50"),
        ('{"queries": ["a"], "limit": 5}', "unknown argument"),
    ],
)
async def test_bad_arguments_come_back_as_text_for_the_model(arguments: str, says: str) -> None:
    world, conv = await _world()
    call = {"name": "search_facts", "arguments": arguments, "call_id": "c9"}
    reply = await SearchFactsHandler(world.memory, conv).handle(call)
    assert reply.is_error
    assert says in reply.text
    assert reply.openai_responses_item()["call_id"] == "c9"


async def test_the_tool_is_offered_only_with_user_or_agent_memory() -> None:
    world, conv = await _world()
    off = AgentMemoryConfig("nova", user_memory_enabled=False, agent_memory_enabled=False)
    assert tools_for(world.memory, conv) != []
    assert tools_for(world.memory, world.memory.conversation(off, "s1", ["alice"])) == []


async def test_another_user_finds_nothing_of_alice() -> None:
    world, _ = await _world()
    bob = world.memory.conversation(AgentMemoryConfig("nova"), "s2", ["bob"])
    text = await SearchFactsHandler(world.memory, bob)(
        {"name": "search_facts", "arguments": {"queries": ["email"]}}
    )
    assert text.startswith("No facts found")


@pytest.mark.parametrize("call", [_as_query(c) for c in CALLS])
async def test_the_specifications_query_argument_works_in_every_format(call: object) -> None:
    world, conv = await _world()
    reply = await SearchFactsHandler(world.memory, conv).handle(call)
    assert not reply.is_error, reply.text
    assert "Alice's email is alice@example.com" in reply.text


@pytest.mark.parametrize("args", [{"query": "email"}, {"queries": "email"}, {"query": ["email"]}])
async def test_a_single_string_is_one_query(args: dict[str, object]) -> None:
    world, conv = await _world()
    reply = await SearchFactsHandler(world.memory, conv).handle(
        {"name": "search_facts", "args": args}
    )
    assert not reply.is_error, reply.text
    assert "Alice's email" in reply.text
