"""The MCP server, driven by the SDK's in-process client: tools, search, user isolation."""

from __future__ import annotations

import re
from datetime import timedelta

from mcp import Client
from mcp.types import TextContent

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.server import _ended, build_server
from eden_memory.application.formation.reports import ConsolidationOutcome, FormationReport
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.search.score_meaning import COSINE, RELEVANCE
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from tests.application.story import Story, World, make_world

AGENT = AgentMemoryConfig("nova")
FACTS = {
    "my email is alice@example.com": [("Alice's email is alice@example.com", "user")],
    "my email is bob@example.com": [("Bob's email is bob@example.com", "user")],
}


async def _world() -> World:
    world = make_world(Story(facts=FACTS))
    for user, text in (
        ("alice", "my email is alice@example.com"),
        ("bob", "my email is bob@example.com"),
    ):
        conv = world.memory.conversation(AGENT, f"s-{user}", [user])
        await world.memory.record_messages(conv, world.messages(text, author=user))
        await world.memory.end_session(conv)
    return world


def _text(result: object) -> str:
    content = getattr(result, "content", [])
    return "\n".join(c.text for c in content if isinstance(c, TextContent))


async def test_a_client_lists_the_tools_and_finds_only_its_users_facts() -> None:
    world = await _world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"search_facts", "get_memory_context", "record_messages", "end_session"}
        found = _text(await client.call_tool("search_facts", {"queries": ["email"]}))
    assert "alice@example.com" in found
    assert "bob@example.com" not in found


async def test_a_server_pinned_to_a_user_refuses_calls_for_another() -> None:
    world = await _world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        result = await client.call_tool("search_facts", {"queries": ["email"], "user_id": "bob"})
        context = await client.call_tool("get_memory_context", {"user_id": "bob"})
    assert result.is_error
    assert "refused" in _text(result)
    assert context.is_error
    assert "bob@example.com" not in _text(context)


async def test_another_users_session_id_is_refused_by_every_tool() -> None:
    """A server not pinned to a user: a client naming Bob and Alice's session gets a
    one-line refusal from each tool, and none of her session's memory."""
    world = await _world()
    alices = world.memory.conversation(AGENT, "s-alice", ["alice"])
    await world.memory.record_messages(alices, world.messages("one more thing"))
    key = ScopeKey.session("nova", "s-alice")
    await world.memory.admin.replace_consolidated(key, "Alice plans a surprise", expected_version=0)
    server = build_server(world.memory, ServerIdentity(AGENT))
    bob = {"user_id": "bob", "session_id": "s-alice"}
    async with Client(server) as client:
        results = [
            await client.call_tool("get_memory_context", bob),
            await client.call_tool("search_facts", {"queries": ["email"], **bob}),
            await client.call_tool("end_session", bob),
        ]
        alice = await client.call_tool("get_memory_context", {**bob, "user_id": "alice"})
    for result in results:
        assert result.is_error
        assert "own session id" in _text(result)
        assert "\n" not in _text(result)
        assert "surprise" not in _text(result)
    assert "Alice plans a surprise" in _text(alice)


async def test_recording_a_turn_and_ending_the_session_forms_memory() -> None:
    world = await _world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice", session_id="s9"))
    turn = [{"role": "user", "text": "my email is alice@example.com", "author_id": "alice"}]
    async with Client(server) as client:
        recorded = await client.call_tool("record_messages", {"messages": turn})
        ended = await client.call_tool("end_session", {})
        context = await client.call_tool("get_memory_context", {})
    assert not recorded.is_error, _text(recorded)
    assert "recorded 1 message" in _text(recorded)
    assert not ended.is_error, _text(ended)
    assert "alice@example.com" in _text(context)


async def test_a_recorded_turn_counts_only_the_messages_kept() -> None:
    world = await _world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice", session_id="s9"))
    turn = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "my email is alice@example.com"},
        {"role": "assistant", "content": "Noted."},
    ]
    async with Client(server) as client:
        recorded = await client.call_tool("record_messages", {"messages": turn})
    assert not recorded.is_error, _text(recorded)
    assert "recorded 2 message(s) (2 pending)" in _text(recorded)


def test_ending_a_session_says_which_consolidation_was_not_kept() -> None:
    report = FormationReport(AgentId("nova"), SessionId("s9"), "end", messages=2)
    report.consolidations = [
        ConsolidationOutcome("user:nova:alice", 0, None, "rejected", error="echoes the prompt"),
        ConsolidationOutcome("session:nova:s9", 2, 1, "consolidated"),
    ]
    assert _ended(report) == (
        "session ended; memories formed; consolidation not kept for user:nova:alice (rejected) "
        "(buffer kept)"
    )


async def test_an_empty_context_over_older_facts_says_search_facts_finds_them() -> None:
    world = make_world()
    month_ago = world.clock.now() - timedelta(days=30)
    facts = [
        FactInput(content=f"Alice fact {n}", agent_id="nova", user_id="alice", formed_at=month_ago)
        for n in range(3)
    ]
    await world.memory.admin.add_facts(facts)
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        older = _text(await client.call_tool("get_memory_context", {}))
    assert older == (
        "(empty memory context: no facts in the recent window (the newest 40, formed in the "
        "last 7 days); 3 older facts are found by search: call search_facts)"
    )
    nobody = build_server(world.memory, ServerIdentity(AGENT, user_id="carol"))
    async with Client(nobody) as client:
        assert _text(await client.call_tool("get_memory_context", {})) == ""


async def test_debug_search_labels_and_explains_every_score() -> None:
    world = await _world()
    server = build_server(world.memory, ServerIdentity(AGENT, user_id="alice"))
    async with Client(server) as client:
        found = _text(await client.call_tool("search_facts", {"query": ["email"], "debug": True}))
    assert f"  {RELEVANCE.line()}" in found
    assert f"  {COSINE.line()}" in found
    assert re.search(r": relevance [01]\.\d{4} score \S+ cosine \S+ bm25 \S+", found), found
