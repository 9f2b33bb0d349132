"""An OpenAI Agents SDK agent with eden-memory: attach, and run with an ``EdenSession``.

    pip install -e ".[embedded,openai-agents]"
    python examples/openai_agents_agent.py          # offline: a scripted model (below)
    python examples/openai_agents_agent.py --real   # the SDK's default model; OPENAI_API_KEY

The SDK ships no offline model, so ``OfflineModel`` stands in: it calls ``search_facts`` once
and answers with what it found. The session records the run's messages as the run adds
them; the agent's own (dynamic) instructions are kept, the memory context after them.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.integrations.openai_agents import AgentsMemory, EdenSession
except MissingExtraError as missing:  # without the extra: one line saying which
    sys.exit(f"error: {missing}")

from agents import Agent, ModelResponse, RunContextWrapper, Runner, Usage, set_tracing_disabled
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from eden_memory.demo.alice import AGENT, remembering_memory, run_example


class OfflineModel(Model):
    """Searches memory for the email, then answers with the tool's output."""

    async def get_response(
        self, system_instructions: str | None, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [] if isinstance(input, str) else list(input)
        found = [i["output"] for i in items if i.get("type") == "function_call_output"]
        output: list[Any]
        if found:
            text = ResponseOutputText(
                text=f"From memory: {found[-1]}", type="output_text", annotations=[]
            )
            output = [
                ResponseOutputMessage(
                    id="m1", role="assistant", status="completed", type="message", content=[text]
                )
            ]
        else:
            call = '{"query": ["email"]}'
            output = [
                ResponseFunctionToolCall(
                    type="function_call", name="search_facts", arguments=call, call_id="c1"
                )
            ]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the offline model does not stream")


def instructions(ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
    """The agent's own dynamic instructions: ``attach`` keeps them."""
    return f"You are {agent.name}, a helpful assistant. The user is {ctx.context['name']}."


async def main(real: bool = False) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        model = None if real else OfflineModel()  # None: the SDK's default model
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
