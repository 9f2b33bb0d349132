"""The middleware in LangChain's create_agent (LangGraph 1's agent), with a scripted model."""

from __future__ import annotations

import warnings

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from eden_memory.adapters.integrations.langchain_agent import MemoryMiddleware
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world
from tests.integrations.langchain_fake import ScriptedChatModel

AGENT = AgentMemoryConfig("nova")
FACTS = {"I live in Oslo.": [("Alice lives in Oslo", "user")]}


def _model() -> ScriptedChatModel:
    def step(messages: list[BaseMessage]) -> AIMessage:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return AIMessage(f"memory says: {last.text}")
        if "Where" in str(last.text):
            call = {"name": "search_facts", "args": {"query": ["Alice lives"]}, "id": "c1"}
            return AIMessage("", tool_calls=[call])
        return AIMessage("Noted.")

    return ScriptedChatModel(steps=[step] * 3)


async def _pending(world: World, session: str) -> int:
    chat = world.memory.conversation(AGENT, session, ["alice"])
    state = (await world.memory.record_messages(chat, [])).state
    return state.pending_messages if state else 0


async def test_a_run_is_recorded_and_a_later_run_sees_and_searches_the_memory() -> None:
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    agent = create_agent(_model(), middleware=[MemoryMiddleware(world.memory, monday)])
    await agent.ainvoke({"messages": [HumanMessage("I live in Oslo.")]})
    assert await _pending(world, "monday") == 2
    await world.memory.end_session(monday)

    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    model = _model()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        agent = create_agent(
            model,
            system_prompt="Be brief.",
            middleware=[MemoryMiddleware(world.memory, tuesday)],
        )
    state = await agent.ainvoke({"messages": [HumanMessage("Where do I live?")]})

    system = str(model.prompts[0][0].text)
    assert system.startswith("Be brief.\n\n<MemoryContext>")
    assert "Alice lives in Oslo" in system
    assert "- [user] Alice lives in Oslo" in str(state["messages"][-1].text)
    assert await _pending(world, "tuesday") == 2  # the question and the answer only


async def test_no_tool_when_the_agent_has_no_searchable_memory() -> None:
    world = make_world()
    off = AgentMemoryConfig("nova", user_memory_enabled=False, agent_memory_enabled=False)
    chat = world.memory.conversation(off, "s1", ["alice"])
    assert MemoryMiddleware(world.memory, chat).tools == []
    on = world.memory.conversation(AGENT, "s1", ["alice"])
    assert [t.name for t in MemoryMiddleware(world.memory, on).tools] == ["search_facts"]
