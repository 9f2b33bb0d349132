"""The MCP server as clients meet it: reasons for errors, strict schemas, hosts' message shapes."""

from __future__ import annotations

from mcp import Client
from mcp.types import TextContent

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.server import build_server
from eden_memory.cli.mcp import no_llm_warning
from eden_memory.config import EdenMemoryConfig
from eden_memory.container.llms import UnconfiguredLLM
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import make_world

AGENT = AgentMemoryConfig("nova")


def _text(result: object) -> str:
    content = getattr(result, "content", [])
    return "\n".join(c.text for c in content if isinstance(c, TextContent))


async def test_every_tool_refuses_unknown_arguments_and_publishes_its_limits() -> None:
    world = make_world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        tools = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
        refused = await client.call_tool("search_facts", {"query": ["email"], "limit": 5})
        context = await client.call_tool("get_memory_context", {"usr_id": "alice"})
    assert all(schema["additionalProperties"] is False for schema in tools.values())
    search = tools["search_facts"]["properties"]
    assert search["top_k"]["maximum"] == 50
    assert search["query"]["anyOf"][0]["maxItems"] == 3
    assert search["query"]["anyOf"][0]["items"]["maxLength"] == 1000
    assert refused.is_error
    assert "limit" in _text(refused)
    assert context.is_error
    assert "usr_id" in _text(context)


async def test_a_failing_tool_tells_the_client_why() -> None:
    world = make_world(llm=UnconfiguredLLM())
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice", session_id="s1"))
    turn = [{"role": "user", "content": "my email is alice@example.com"}]
    async with Client(server) as client:
        await client.call_tool("record_messages", {"messages": turn})
        ended = await client.call_tool("end_session", {})
        too_many = await client.call_tool("search_facts", {"query": ["a", "b", "c", "d"]})
    assert ended.is_error
    assert "needs an LLM: set EDEN_MEMORY_LLM_PROVIDER" in _text(ended)
    assert too_many.is_error
    assert "3" in _text(too_many)


async def test_hosts_message_shapes_are_recorded_and_a_bad_batch_is_refused_whole() -> None:
    world = make_world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice", session_id="s1"))
    turn = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "I live in Oslo."}]},
        {"role": "assistant", "content": "Noted."},
        {"role": "model", "parts": [{"text": "Anything else?"}]},
    ]
    bad = [{"role": "assistant", "content": "ok"}, {"role": "robot", "content": "beep"}]
    async with Client(server) as client:
        recorded = await client.call_tool("record_messages", {"messages": turn})
        refused = await client.call_tool("record_messages", {"messages": bad})
    assert not recorded.is_error, _text(recorded)
    assert "(3 pending)" in _text(recorded)
    assert refused.is_error
    assert "messages[1].role: unknown role 'robot'" in _text(refused)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    state = (await world.memory.record_messages(conv, [])).state
    assert state is not None
    assert state.pending_messages == 3


async def test_search_facts_takes_query_or_queries_over_mcp() -> None:
    world = make_world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        replies = [
            await client.call_tool("search_facts", args)
            for args in ({"query": ["email"]}, {"query": "email"}, {"queries": ["email"]})
        ]
    for reply in replies:
        assert not reply.is_error, _text(reply)
        assert 'No facts found for "email"' in _text(reply)


def test_the_start_up_warning_names_the_tools_that_cannot_form_memory() -> None:
    warning = no_llm_warning(EdenMemoryConfig(llm_provider="none"))
    assert warning is not None
    assert "record_messages" in warning
    assert "end_session" in warning
    assert no_llm_warning(EdenMemoryConfig(llm_provider="openai")) is None
