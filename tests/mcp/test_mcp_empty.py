"""Through MCP, an empty search says why: nothing stored about this, or no facts visible."""

from __future__ import annotations

from typing import Any

from mcp import Client

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.server import build_server
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import World, make_world
from tests.application.test_search import _world
from tests.mcp.test_mcp_server import _text

QUESTION: dict[str, Any] = {"query": ["Which dentist does Carla see?"]}


async def _answer(world: World, args: dict[str, Any]) -> str:
    server = build_server(world.memory, ServerIdentity(AgentMemoryConfig("nova"), "alice"))
    async with Client(server) as client:
        reply = await client.call_tool("search_facts", args)
    assert not reply.is_error, _text(reply)
    return _text(reply)


async def test_an_abstaining_search_says_nothing_is_stored_about_it_and_why() -> None:
    world, _ = await _world()
    text = await _answer(world, QUESTION)
    assert text.startswith('No facts found for "Which dentist does Carla see?": nothing stored')
    assert "under the line 0.5)" in text


async def test_an_empty_store_says_no_facts_are_visible() -> None:
    text = await _answer(make_world(), QUESTION)
    assert "no facts visible (no fact visible to this user and agent)" in text
    assert "nothing stored" not in text


async def test_a_search_with_results_is_unchanged() -> None:
    world, _ = await _world()
    text = await _answer(world, {"query": ["Mars festival budget"]})
    assert text.startswith('Facts found for "Mars festival budget", best first:')
