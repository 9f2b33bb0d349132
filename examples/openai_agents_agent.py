"""An OpenAI Agents SDK agent with eden-memory: attach, and run with an ``EdenSession``.

    pip install -e ".[embedded,openai-agents]"
    python examples/openai_agents_agent.py          # offline: the SDK's ScriptedModel
    python examples/openai_agents_agent.py --real   # the SDK's default model; OPENAI_API_KEY

Offline, the model is the SDK's own test double (``agents.testing.ScriptedModel``): it calls
``search_facts`` once and answers with what it found. The session records the run's messages
as the run adds them; the agent's own (dynamic) instructions are kept, the memory context
after them.
"""

from __future__ import annotations

import sys
from typing import Any

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.integrations.openai_agents import AgentsMemory, EdenSession
except MissingExtraError as missing:  # without the extra: one line saying which
    sys.exit(f"error: {missing}")

from agents import Agent, RunContextWrapper, Runner, set_tracing_disabled
from agents.models.interface import Model
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call

from eden_memory.demo.alice import AGENT, remembering_memory, run_example


def read_back(call: ModelCall) -> list[Any]:
    """The model's answer: what the memory's tool gave it."""
    found = [i["output"] for i in call.input if i.get("type") == "function_call_output"]
    return [assistant_message(f"From memory: {found[-1]}")]


def offline_model() -> ScriptedModel:
    """Searches memory for the email, then answers with the tool's output."""
    search = function_call("search_facts", {"query": ["email"]}, call_id="c1")
    return ScriptedModel([[search], ModelStep.respond(read_back)])


def instructions(ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
    """The agent's own dynamic instructions: ``attach`` keeps them."""
    return f"You are {agent.name}, a helpful assistant. The user is {ctx.context['name']}."


async def main(real: bool = False) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        model: Model | None = None if real else offline_model()  # None: the SDK's default
        set_tracing_disabled(not real)  # offline, nothing leaves this machine, traces neither
        helper = Agent(name="helper", instructions=instructions, model=model)
        # The lines a host adds: attach the memory, run with a session that records.
        agent = AgentsMemory(memory, chat).attach(helper)
        session = EdenSession(memory, chat)  # the items in the SDK's in-memory SQLiteSession
        question = "What is my email address?"
        result = await Runner.run(agent, question, session=session, context={"name": "Alice"})
        print(result.final_output)
        state = (await memory.record_messages(chat, [])).state  # nothing more to record
        print(f"messages recorded: {state.pending_messages if state else 0}")
        return str(result.final_output)


if __name__ == "__main__":
    run_example(main, keys=["OPENAI_API_KEY"])
