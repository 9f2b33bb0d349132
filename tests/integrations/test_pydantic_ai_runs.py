"""The pydantic-ai capability through ``Agent``'s own entry points, with its ``TestModel`` and
``FunctionModel``: two users, each run's way of starting, a run paused for approval."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world
from tests.integrations.heard import heard

AGENT = AgentMemoryConfig("nova")
FACTS = {
    "I live in Oslo.": [("Alice lives in Oslo", "user")],
    "I live in Rome.": [("Bob lives in Rome", "user")],
}
HOMES = {"alice": "Oslo", "bob": "Rome"}


def searching(seen: list[str]) -> FunctionModel:
    """Searches memory for "lives", then answers with what it found; keeps what each request
    showed the model (its instructions and its parts)."""

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        seen.append(f"{last.instructions} {last.parts}")
        returned = [p for p in last.parts if isinstance(p, ToolReturnPart)]
        if returned:
            return ModelResponse(parts=[TextPart(returned[0].model_response_str())])
        return ModelResponse(parts=[ToolCallPart("search_facts", {"query": ["lives"]}, "c1")])

    return FunctionModel(model)


async def test_each_user_finds_only_their_own_memory_in_their_next_session() -> None:
    world = make_world(Story(facts=FACTS))
    agent = Agent(TestModel(call_tools=[]))  # one agent for every user and session
    for user, home in HOMES.items():
        monday = world.memory.conversation(AGENT, f"{user}-monday", [user])
        await agent.run(f"I live in {home}.", capabilities=[EdenMemory(world.memory, monday)])
        await world.memory.end_session(monday)  # formed from the recorded run

    seen: dict[str, list[str]] = {user: [] for user in HOMES}
    answers: dict[str, str] = {}
    for user in HOMES:
        tuesday = world.memory.conversation(AGENT, f"{user}-tuesday", [user])
        memory = EdenMemory(world.memory, tuesday)
        result = await Agent(searching(seen[user]), capabilities=[memory]).run("Where do I live?")
        answers[user] = result.output

    assert "Alice lives in Oslo" in seen["alice"][0]  # in the instructions before any search
    assert "Bob lives in Rome" in seen["bob"][0]
    assert "- [user] Alice lives in Oslo" in answers["alice"]  # and found by the tool
    assert "- [user] Bob lives in Rome" in answers["bob"]
    assert "Rome" not in f"{seen['alice']} {answers['alice']}"
    assert "Oslo" not in f"{seen['bob']} {answers['bob']}"


async def _run(agent: Agent[None, str]) -> None:
    await agent.run("I live in Oslo.")


async def _run_stream(agent: Agent[None, str]) -> None:
    async with agent.run_stream("I live in Oslo.") as streamed:
        await streamed.get_output()


async def _run_stream_events(agent: Agent[None, str]) -> None:
    async with agent.run_stream_events("I live in Oslo.") as events:
        async for _ in events:
            pass


async def _iter(agent: Agent[None, str]) -> None:
    async with agent.iter("I live in Oslo.") as run:
        async for _ in run:
            pass


@pytest.mark.parametrize("way", [_run, _run_stream, _run_stream_events, _iter])
async def test_every_way_of_running_records_the_turn_once(
    way: Callable[[Agent[None, str]], Awaitable[None]],
) -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    model = TestModel(call_tools=[], custom_output_text="Noted.")
    await way(Agent(model, capabilities=[EdenMemory(world.memory, chat)]))
    transcript = await heard(world, chat)
    assert transcript.count("I live in Oslo.") == 1
    assert transcript.count("Noted.") == 1


async def test_a_run_paused_for_approval_and_resumed_records_each_message_once() -> None:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(isinstance(p, ToolReturnPart) for p in messages[-1].parts):
            return ModelResponse(parts=[TextPart("Refunded.")])
        return ModelResponse(parts=[ToolCallPart("refund", {"amount": 5}, "r1")])

    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    agent: Agent[None, Any] = Agent(
        FunctionModel(model),
        output_type=[str, DeferredToolRequests],
        capabilities=[EdenMemory(world.memory, chat)],
    )

    @agent.tool_plain(requires_approval=True)
    def refund(amount: int) -> str:
        return f"refunded {amount}"

    paused = await agent.run("Refund me 5.")
    assert isinstance(paused.output, DeferredToolRequests)
    approved = DeferredToolResults(approvals={"r1": True})
    resumed = await agent.run(message_history=paused.all_messages(), deferred_tool_results=approved)

    assert resumed.output == "Refunded."
    transcript = await heard(world, chat)
    for said in ("Refund me 5.", '[called refund {"amount":5}]', "refunded 5", "Refunded."):
        assert transcript.count(said) == 1, transcript
