"""Runs of other shapes through the SDK's Runner and its own ``agents.testing.ScriptedModel``:
streamed, handed off, paused for a tool's approval and resumed, an agent used as a tool."""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent, Runner, RunState, SQLiteSession, function_tool
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call

from eden_memory.adapters.integrations.openai_agents import AgentsMemory, EdenSession
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world
from tests.integrations.heard import heard

AGENT = AgentMemoryConfig("nova")
FACTS = {"I live in Oslo.": [("Alice lives in Oslo", "user")]}


def _read_back(call: ModelCall) -> list[Any]:
    """The last tool output, as the model's answer."""
    output = [
        i for i in call.input if isinstance(i, dict) and i.get("type") == "function_call_output"
    ]
    return [assistant_message(f"memory says: {output[-1]['output']}")]


async def test_a_streamed_run_is_recorded_and_its_memory_found_in_a_streamed_run() -> None:
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    model = ScriptedModel([[assistant_message("Noted.")]])
    agent = AgentsMemory(world.memory, monday).attach(Agent(name="nova", model=model))
    streamed = Runner.run_streamed(
        agent, "I live in Oslo.", session=EdenSession(world.memory, monday)
    )
    async for _ in streamed.stream_events():
        pass
    assert "Noted." in await heard(world, monday)

    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    search = function_call("search_facts", {"query": ["Alice lives"]}, call_id="c1")
    model = ScriptedModel([[search], ModelStep.respond(_read_back)])
    agent = AgentsMemory(world.memory, tuesday).attach(Agent(name="nova", model=model))
    session = EdenSession(world.memory, tuesday)
    streamed = Runner.run_streamed(agent, "Where do I live?", session=session)
    async for _ in streamed.stream_events():
        pass

    assert [call.streamed for call in model.calls] == [True, True]
    assert "Alice lives in Oslo" in str(model.calls[0].system_instructions)
    assert "- [user] Alice lives in Oslo" in str(streamed.final_output)
    assert len(await session.get_items()) == 4  # the items, tool call and output included
    transcript = await heard(world, tuesday)
    assert "Where do I live?" in transcript
    assert "search_facts" not in transcript  # memory's own tool is not recorded


async def test_record_of_streamed_runs_beside_the_sdks_own_session_records_each_turn() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    memory_for = AgentsMemory(world.memory, chat)
    model = ScriptedModel([[assistant_message("Noted.")], [assistant_message("Sure.")]])
    agent = memory_for.attach(Agent(name="nova", model=model))
    history = SQLiteSession("s1")
    for text in ("I live in Oslo.", "Thanks."):
        streamed = Runner.run_streamed(agent, text, session=history)
        async for _ in streamed.stream_events():
            pass
        assert (await memory_for.record(streamed)).messages == 2  # not the history again

    transcript = await heard(world, chat)
    for said in ("I live in Oslo.", "Noted.", "Thanks.", "Sure."):
        assert transcript.count(said) == 1, transcript


async def test_an_agent_handed_off_to_sees_the_memory_when_attached_too() -> None:
    world = make_world(Story(facts=FACTS))
    monday = world.memory.conversation(AGENT, "monday", ["alice"])
    await world.memory.record_messages(monday, [{"role": "user", "content": "I live in Oslo."}])
    await world.memory.end_session(monday)

    tuesday = world.memory.conversation(AGENT, "tuesday", ["alice"])
    memory_for = AgentsMemory(world.memory, tuesday)
    billing_model = ScriptedModel([[assistant_message("Billing here: your invoice goes to Oslo.")]])
    billing = memory_for.attach(Agent(name="billing", instructions="Bills.", model=billing_model))
    front_model = ScriptedModel([[function_call("transfer_to_billing", {}, call_id="h1")]])
    front = memory_for.attach(
        Agent(name="front", instructions="Route.", model=front_model, handoffs=[billing])
    )
    result = await Runner.run(
        front, "Where is my invoice sent?", session=EdenSession(world.memory, tuesday)
    )

    assert result.last_agent.name == "billing"
    for model in (front_model, billing_model):
        assert "Alice lives in Oslo" in str(model.calls[0].system_instructions)
    transcript = await heard(world, tuesday)
    assert "Where is my invoice sent?" in transcript
    assert "Billing here: your invoice goes to Oslo." in transcript  # the whole run, both agents
    assert transcript.count("Where is my invoice sent?") == 1


@function_tool(needs_approval=True)
def refund(amount: int) -> str:
    """Refund the user (a person approves it first)."""
    return f"refunded {amount}"


def _refunding() -> ScriptedModel:
    return ScriptedModel(
        [
            [function_call("refund", {"amount": 5}, call_id="r1")],
            [assistant_message("Refunded.")],
        ]
    )


async def test_a_run_paused_for_approval_and_resumed_records_each_message_once() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    agent = AgentsMemory(world.memory, chat).attach(
        Agent(name="nova", model=_refunding(), tools=[refund])
    )
    session = EdenSession(world.memory, chat)
    paused = await Runner.run(agent, "Refund me 5.", session=session)
    assert len(paused.interruptions) == 1
    state = paused.to_state()
    state.approve(paused.interruptions[0])
    resumed = await Runner.run(agent, state, session=session)

    assert resumed.final_output == "Refunded."
    transcript = await heard(world, chat)
    for said in ("Refund me 5.", '[called refund {"amount":5}]', "refunded 5", "Refunded."):
        assert transcript.count(said) == 1, transcript


@pytest.mark.parametrize("serialized", [False, True], ids=["in-process", "from-json"])
async def test_record_of_a_paused_run_waits_for_its_resumption_which_records_the_turn_once(
    serialized: bool,
) -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    memory_for = AgentsMemory(world.memory, chat)
    agent = memory_for.attach(Agent(name="nova", model=_refunding(), tools=[refund]))
    paused = await Runner.run(agent, "Refund me 5.")
    assert (await memory_for.record(paused)).messages == 0  # the turn is not over
    state = paused.to_state()
    if serialized:  # a host that waits for the approval in another process
        state = await RunState.from_string(agent, state.to_string())
    state.approve(state.get_interruptions()[0])
    resumed = await Runner.run(agent, state)
    assert (await memory_for.record(resumed)).messages == 4

    transcript = await heard(world, chat)
    for said in ("Refund me 5.", '[called refund {"amount":5}]', "refunded 5", "Refunded."):
        assert transcript.count(said) == 1, transcript


async def test_an_agent_used_as_a_tool_is_heard_through_its_output_only() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    inner_model = ScriptedModel([[assistant_message("Il fait beau.")]])
    translate = Agent(name="translator", model=inner_model).as_tool(
        tool_name="translate", tool_description="Translate to French."
    )
    outer_model = ScriptedModel(
        [
            [function_call("translate", {"input": "It is nice."}, call_id="t1")],
            [assistant_message("In French: Il fait beau.")],
        ]
    )
    outer = AgentsMemory(world.memory, chat).attach(
        Agent(name="nova", model=outer_model, tools=[translate])
    )
    await Runner.run(outer, "Say 'It is nice' in French.", session=EdenSession(world.memory, chat))

    assert inner_model.calls[0].system_instructions is None  # not attached: no memory context
    transcript = await heard(world, chat)
    assert '[called translate {"input":"It is nice."}]' in transcript
    assert transcript.count("Il fait beau.") == 2  # the tool's output, then the outer answer
    assert len(transcript.strip().splitlines()) == 4  # the inner run's own items are not transcript
