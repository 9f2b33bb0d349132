"""The LangGraph pieces in a real graph: a scripted model node, LangGraph's ToolNode, recording."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from eden_memory.adapters.integrations.langgraph import GraphMemory
from eden_memory.domain.errors import MissingExtraError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world

AGENT = AgentMemoryConfig("nova")
FACTS = {"I live in Oslo.": [("Alice lives in Oslo", "user")]}


def _graph(memory_for: GraphMemory, prompts: list[list[BaseMessage]]) -> Any:
    async def model(state: MessagesState) -> dict[str, Any]:
        messages = await memory_for.prompt.ainvoke(state)
        prompts.append(messages)
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return {"messages": [AIMessage(f"memory says: {last.text}")]}
        if "Where" in str(last.text):
            call = {"name": "search_facts", "args": {"query": ["Alice lives"]}, "id": "c1"}
            return {"messages": [AIMessage("", tool_calls=[call])]}
        return {"messages": [AIMessage("Noted.")]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", model)
    graph.add_node("tools", ToolNode([memory_for.tool()]))
    graph.add_node("remember", memory_for.record)
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition, {"tools": "tools", END: "remember"})
    graph.add_edge("tools", "model")
    graph.add_edge("remember", END)
    return graph.compile()


async def test_a_graph_reads_the_context_searches_and_records_its_turns() -> None:
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    await _graph(GraphMemory(world.memory, monday), []).ainvoke(
        {"messages": [("user", "I live in Oslo.")]}
    )
    await world.memory.end_session(monday)

    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    prompts: list[list[BaseMessage]] = []
    memory_for = GraphMemory(world.memory, tuesday, instructions="Be brief.")
    graph = _graph(memory_for, prompts)
    state = await graph.ainvoke({"messages": [("user", "Where do I live?")]})

    system = str(prompts[0][0].text)
    assert system.startswith("Be brief.\n\n<MemoryContext>")
    assert "Alice lives in Oslo" in system
    assert "- [user] Alice lives in Oslo" in str(state["messages"][-1].text)
    await memory_for.record(state)  # again: nothing new is recorded
    recorded = (await world.memory.record_messages(tuesday, [])).state
    assert recorded is not None
    assert recorded.pending_messages == 2  # the question and the answer only


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("langchain_core", "langchain_core.messages", "langchain_core.tools"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "eden_memory.adapters.integrations.langgraph")
    with pytest.raises(MissingExtraError, match=r'pip install -e "\.\[langgraph\]"'):
        importlib.import_module("eden_memory.adapters.integrations.langgraph")
