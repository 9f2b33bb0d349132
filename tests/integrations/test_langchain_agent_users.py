"""One compiled agent for every user: each invocation's config or context names the user and
session; sync and async, through create_agent with LangChain's own test model."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal
from uuid import uuid4

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver

from eden_memory.adapters.integrations.langchain_agent import MemoryMiddleware
from eden_memory.adapters.integrations.langgraph import conversation_of
from eden_memory.domain.errors import ConfigurationError, InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world
from tests.integrations.langchain_fake import ToolTakingFakeModel

FACTS = {
    "I live in Oslo.": [("Alice lives in Oslo", "user")],
    "I live in Lima.": [("Bob lives in Lima", "user")],
}
SEARCH = {"name": "search_facts", "args": {"query": ["where lives"]}, "id": "c1"}
Mode = Literal["sync", "async"]


def _replies(*replies: AIMessage) -> Iterator[AIMessage]:
    return iter(replies)


async def _run(agent: Any, mode: Mode, text: str, **how: Any) -> dict[str, Any]:
    """``invoke`` as an async host runs sync code (in a thread), or ``ainvoke``."""
    given = {"messages": [HumanMessage(text)]}
    if mode == "sync":
        state: dict[str, Any] = await asyncio.to_thread(agent.invoke, given, **how)
    else:
        state = await agent.ainvoke(given, **how)
    return state


def _thread(user: str, session: str) -> RunnableConfig:
    return {"configurable": {"thread_id": session, "user_id": user}}


async def _teach(world: World, agent: Any, mode: Mode) -> None:
    """Alice and Bob each say where they live, in a first session that then ends."""
    await _run(agent, mode, "I live in Oslo.", config=_thread("alice", "alice-1"))
    await _run(agent, mode, "I live in Lima.", context={"user_id": "bob", "session_id": "bob-1"})
    for user in ("alice", "bob"):
        await world.memory.end_session(world.memory.conversation("nova", f"{user}-1", [user]))


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_two_users_two_sessions_one_agent_and_nothing_crosses(mode: Mode) -> None:
    world = make_world(Story(facts=FACTS))
    noted = [AIMessage("Noted."), AIMessage("Noted.")]
    model = ToolTakingFakeModel(
        messages=_replies(*noted, *[AIMessage("", tool_calls=[SEARCH]), AIMessage("Found.")] * 2)
    )
    agent = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent="nova")])
    await _teach(world, agent, mode)

    alice = await _run(agent, mode, "Where do I live?", config=_thread("alice", "alice-2"))
    bob = await _run(
        agent, mode, "Where do I live?", context={"user_id": "bob"}, config=_thread("x", "bob-2")
    )

    alice_system, bob_system = (str(model.prompts[i][0].text) for i in (2, 4))
    assert "Alice lives in Oslo" in alice_system
    assert "Bob" not in alice_system
    assert "Bob lives in Lima" in bob_system
    assert "Alice" not in bob_system
    [alice_found] = [m.text for m in alice["messages"] if isinstance(m, ToolMessage)]
    [bob_found] = [m.text for m in bob["messages"] if isinstance(m, ToolMessage)]
    assert "Alice lives in Oslo" in alice_found
    assert "Bob" not in alice_found
    assert "Bob lives in Lima" in bob_found
    assert "Alice" not in bob_found
    # Each run was recorded in its own session: the question and the answer.
    for user in ("alice", "bob"):
        chat = world.memory.conversation("nova", f"{user}-2", [user])
        state = (await world.memory.record_messages(chat, [])).state
        assert state is not None
        assert state.pending_messages == 2


def test_a_sync_host_opens_the_memory_on_a_memory_thread() -> None:
    from eden_memory.adapters.integrations.langgraph import MemoryThread
    from eden_memory.factory import open_memory
    from eden_memory.testing import KeywordEmbedder, ScriptedLLM, memory_stores

    with MemoryThread() as thread:
        memory = thread.open(
            open_memory(
                llm=ScriptedLLM(Story(facts=FACTS)),
                store=memory_stores(),
                embedder=KeywordEmbedder(),
            )
        )
        model = ToolTakingFakeModel(
            messages=_replies(
                AIMessage("Noted."), AIMessage("", tool_calls=[SEARCH]), AIMessage("Found.")
            )
        )
        middleware = MemoryMiddleware(memory, agent="nova", loop=thread.loop)
        agent = create_agent(model, middleware=[middleware])
        agent.invoke({"messages": [HumanMessage("I live in Oslo.")]}, _thread("alice", "s1"))
        thread.run(lambda: memory.end_session(memory.conversation("nova", "s1", ["alice"])))
        state = agent.invoke({"messages": [HumanMessage("Where?")]}, _thread("alice", "s2"))
    assert "Alice lives in Oslo" in str(model.prompts[1][0].text)
    assert "Alice lives in Oslo" in str(state["messages"][2].text)


async def test_a_sync_invoke_on_the_memorys_own_loop_is_refused_not_deadlocked() -> None:
    world = make_world()
    model = ToolTakingFakeModel(messages=_replies(AIMessage("Hi.")))
    agent = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent="nova")])
    with pytest.raises(ConfigurationError, match=r"asyncio\.to_thread\(agent\.invoke"):
        agent.invoke({"messages": [HumanMessage("Hello")]}, _thread("alice", "s1"))
    assert model.prompts == []  # refused before the model was called


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ({"config": {"configurable": {"user_id": "alice"}}}, "needs the invocation's session"),
        ({"config": {"configurable": {"thread_id": "s1"}}}, "needs the invocation's user"),
        ({"context": {"user_id": 7, "session_id": "s1"}}, "user_id must be a string"),
        ({"context": {"user_id": "a", "user_ids": ["b"], "session_id": "s"}}, "not both"),
    ],
)
@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_an_invocation_that_does_not_say_who_is_refused(
    how: dict[str, Any], message: str, mode: Mode
) -> None:
    world = make_world()
    model = ToolTakingFakeModel(messages=_replies(AIMessage("Hi.")))
    agent = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent="nova")])
    with pytest.raises(InvalidInputError, match=message):
        await _run(agent, mode, "Hello", **how)
    assert model.prompts == []


async def test_no_search_tool_in_a_session_that_cannot_search() -> None:
    world = make_world()
    users_only = AgentMemoryConfig("nova", agent_memory_enabled=False)
    model = ToolTakingFakeModel(messages=_replies(AIMessage("Hi."), AIMessage("Hi.")))
    agent = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent=users_only)])
    who: dict[str, Any]
    for who in ({"user_ids": []}, {"user_id": "alice"}):  # no user: nothing to search
        await _run(agent, "async", "Hello", context={**who, "session_id": "s"})
    assert len(model.prompts) == 2
    assert model.tools_bound == [["search_facts"]]  # the second call only


def test_the_middleware_takes_an_agent_or_a_conversation() -> None:
    world = make_world()
    chat = world.memory.conversation("nova", "s1", ["alice"])
    with pytest.raises(InvalidInputError, match="not both"):
        MemoryMiddleware(world.memory, chat, agent="nova")
    with pytest.raises(InvalidInputError, match="agent="):
        MemoryMiddleware(world.memory)


async def test_a_thread_kept_by_a_checkpointer_is_recorded_once() -> None:
    world = make_world()
    model = ToolTakingFakeModel(messages=_replies(AIMessage("Noted."), AIMessage("Noted.")))
    middleware = MemoryMiddleware(world.memory, agent="nova")
    agent = create_agent(model, middleware=[middleware], checkpointer=InMemorySaver())
    await _run(agent, "sync", "I live in Oslo.", config=_thread("alice", "s1"))
    state = await _run(agent, "async", "I like tea.", config=_thread("alice", "s1"))

    assert len(state["messages"]) == 4  # the thread's whole history, run again through
    chat = world.memory.conversation("nova", "s1", ["alice"])
    recorded = (await world.memory.record_messages(chat, [])).state
    assert recorded is not None
    assert recorded.pending_messages == 4  # each message once


async def test_the_context_may_name_another_agent_whose_memory_is_its_own() -> None:
    world = make_world()
    model = ToolTakingFakeModel(messages=_replies(AIMessage("Noted.")))
    agent = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent="nova")])
    await _run(
        agent,
        "async",
        "Hello",
        context={"user_id": "alice", "agent_id": "orion", "session_id": "s1"},
    )

    for agent_id, pending in (("orion", 2), ("nova", 0)):
        chat = world.memory.conversation(agent_id, "s1", ["alice"])
        state = (await world.memory.record_messages(chat, [])).state
        assert (state.pending_messages if state else 0) == pending


def test_the_conversation_of_an_invocation_is_read_from_context_then_config() -> None:
    world = make_world()
    nova = AgentMemoryConfig("nova", agent_memory_enabled=False)

    @dataclass
    class Context:
        user_id: str
        session_id: str | None = None

    def read(context: object, configurable: dict[str, Any]) -> tuple[str, str, tuple[str, ...]]:
        chat = conversation_of(world.memory, nova, context, {"configurable": configurable})
        return chat.agent_id, chat.session_id, tuple(chat.user_ids)

    thread = uuid4()
    assert read(Context("alice"), {"thread_id": thread}) == ("nova", str(thread), ("alice",))
    assert read(Context("alice", "s9"), {"thread_id": 7}) == ("nova", "s9", ("alice",))
    assert read(None, {"thread_id": 7, "user_id": "bob"}) == ("nova", "7", ("bob",))
    assert read({"user_ids": ["a", "b"]}, {"session_id": "s"}) == ("nova", "s", ("a", "b"))
    assert conversation_of(world.memory, nova, {"user_id": "a", "session_id": "s"}, None) == (
        world.memory.conversation(nova, "s", ["a"])
    )
    with pytest.raises(InvalidInputError, match="session must be a string"):
        read(Context("alice"), {"thread_id": True})


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_a_streamed_run_sees_and_records_the_memory(mode: Mode) -> None:
    world = make_world(Story(facts=FACTS))
    model = ToolTakingFakeModel(messages=_replies(AIMessage("Noted."), AIMessage("Noted.")))
    agent = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent="nova")])
    await _teach_alice(world, agent)
    said, config = HumanMessage("And now?"), _thread("alice", "alice-2")
    if mode == "sync":
        steps = await asyncio.to_thread(lambda: list(agent.stream({"messages": [said]}, config)))
    else:
        steps = [step async for step in agent.astream({"messages": [said]}, config)]

    assert steps  # LangGraph streamed its steps
    assert "Alice lives in Oslo" in str(model.prompts[1][0].text)
    chat = world.memory.conversation("nova", "alice-2", ["alice"])
    state = (await world.memory.record_messages(chat, [])).state
    assert state is not None
    assert state.pending_messages == 2


async def _teach_alice(world: World, agent: Any) -> None:
    await _run(agent, "async", "I live in Oslo.", config=_thread("alice", "alice-1"))
    await world.memory.end_session(world.memory.conversation("nova", "alice-1", ["alice"]))
