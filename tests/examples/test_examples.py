"""Every example runs: offline against fakes and local stand-ins, and for real with a key."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from openai import AsyncOpenAI

from examples import background_host, mcp_session, openai_loop
from tests.network_guard import integration_enabled
from tests.providers import openai_wire
from tests.providers.standin import Reply, StandIn


@pytest.fixture
def openai_server() -> Iterator[StandIn]:
    with StandIn(openai_wire.respond, openai_wire.authorize) as server:
        yield server


def _tool_call_body(arguments: dict[str, Any]) -> dict[str, Any]:
    body = openai_wire.chat_body(None, finish_reason="tool_calls")
    call = {"name": "search_facts", "arguments": json.dumps(arguments)}
    body["choices"][0]["message"]["tool_calls"] = [
        {"id": "call_1", "type": "function", "function": call}
    ]
    return body


async def test_the_openai_loop_serves_search_facts_offline(openai_server: StandIn) -> None:
    openai_server.queue(
        Reply(200, _tool_call_body({"queries": ["email"]})),
        Reply(200, openai_wire.chat_body("Your email is alice@example.com.")),
    )
    client = AsyncOpenAI(api_key="sk-test", base_url=openai_server.url + "/v1")
    assert await openai_loop.main(client) == "Your email is alice@example.com."
    first, second = (r.body for r in openai_server.requests)
    assert first["tools"][0]["function"]["name"] == "search_facts"
    assert "Alice wants short answers" in first["messages"][0]["content"]
    tool_result = second["messages"][-1]
    assert tool_result["tool_call_id"] == "call_1"
    assert "- [user] Alice's email is alice@example.com" in tool_result["content"]


@pytest.mark.integration
@pytest.mark.skipif(
    not (integration_enabled() and os.environ.get("OPENAI_API_KEY")),
    reason="needs OPENAI_API_KEY and EDEN_MEMORY_INTEGRATION=1",
)
async def test_the_openai_loop_with_the_real_api() -> None:
    assert "alice@example.com" in await openai_loop.main()


async def test_the_mcp_session_finds_alices_fact() -> None:
    assert "alice@example.com" in await mcp_session.main()


async def test_the_background_host_forms_memories_after_turns() -> None:
    assert "Alice lives in Lyon" in await background_host.main()


async def test_the_pydantic_ai_agent_remembers_offline() -> None:
    from examples import pydantic_ai_agent

    answer = await pydantic_ai_agent.main()
    assert "Alice's email is alice@example.com" in answer


async def test_the_openai_agents_example_remembers_offline() -> None:
    from examples import openai_agents_agent
    from tests.integrations.agents_fake import ScriptedModel, call, text

    def answer(instructions: str | None, items: list[Any]) -> list[Any]:
        output = next(i["output"] for i in items if i.get("type") == "function_call_output")
        return text(f"From memory: {output}")

    model = ScriptedModel(lambda i, items: call("search_facts", '{"query": ["email"]}'), answer)
    answer_text = await openai_agents_agent.main(model)
    assert "Alice's email is alice@example.com" in answer_text
    assert model.instructions[0] is not None
    assert "Alice wants short answers" in model.instructions[0]  # the context


async def test_the_langgraph_example_remembers_offline() -> None:
    from langchain_core.messages import AIMessage, BaseMessage

    from examples import langgraph_agent
    from tests.integrations.langchain_fake import ScriptedChatModel

    def search(messages: list[BaseMessage]) -> AIMessage:
        call = {"name": "search_facts", "args": {"query": ["email"]}, "id": "c1"}
        return AIMessage("", tool_calls=[call])

    def answer(messages: list[BaseMessage]) -> AIMessage:
        return AIMessage(f"From memory: {messages[-1].text}")

    model = ScriptedChatModel(steps=[search, answer], prompts=[])
    reply = await langgraph_agent.main(model)
    assert "Alice's email is alice@example.com" in reply
    system = str(model.prompts[0][0].text)
    assert system.startswith("You are a helpful assistant.\n\n<MemoryContext>")  # the context
    assert "Alice wants short answers" in system


async def test_the_google_adk_example_remembers_offline() -> None:
    from examples import google_adk_agent
    from tests.integrations.adk_fake import ScriptedLlm, call, echo_tool_result, system_of

    search = call("search_facts", {"query": ["email"]})
    model = ScriptedLlm(steps=[search, echo_tool_result("From memory: ")])
    answer = await google_adk_agent.main(model)
    assert "Alice's email is alice@example.com" in answer
    assert "Alice wants short answers" in system_of(model.requests[0])  # the context
