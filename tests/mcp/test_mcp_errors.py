"""Every refusal the MCP server sends is one line naming the field: never pydantic's essay."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.server import build_server
from tests.mcp.test_mcp_server import AGENT, _text, _world

BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("search_facts", {"queries": ["x"], "top_k": 10**30}, "top_k: "),
    ("search_facts", {"queries": ["x"], "top_k": "many"}, "top_k: "),
    ("search_facts", {"queries": ["x"] * 5}, "query: "),  # the older name, read as query
    ("search_facts", {"query": ["x"] * 5}, "query: "),
    ("search_facts", {"top_k": 3}, "query: "),
    ("search_facts", {"queries": ["x"], "topk": 3}, "topk: "),
    ("record_messages", {"messages": "hello"}, "messages: "),
    ("record_messages", {"messages": [{"role": "user", "text": "hi", "sent_at": "no"}]}, "sent_at"),
    ("record_messages", {}, "messages: "),
    ("get_memory_context", {"session_id": ["s1"]}, "session_id: "),
    ("end_session", {"user_id": 5}, "user_id: "),
]


@pytest.mark.parametrize(("tool", "arguments", "named"), BAD_CALLS)
async def test_a_bad_argument_is_refused_in_one_line_naming_it(
    tool: str, arguments: dict[str, Any], named: str
) -> None:
    world = await _world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        result = await client.call_tool(tool, arguments)
    text = _text(result)
    assert result.is_error
    assert named in text
    assert "\n" not in text
    assert "pydantic.dev" not in text
    assert "validation error" not in text
