"""An OpenAI Agents SDK agent with eden-memory: attach, run, record.

Run it with ``OPENAI_API_KEY`` set (the SDK's default model); the test suite passes a
scripted model instead, offline.
"""

from __future__ import annotations

import asyncio

from agents import Agent, Runner
from agents.models.interface import Model

from eden_memory.adapters.integrations.openai_agents import AgentsMemory
from examples.common import AGENT, remembering_memory


async def main(model: Model | None = None) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        helper = Agent(name="helper", instructions="You are a helpful assistant.", model=model)
        # The lines a host adds: attach the memory, record each run.
        memory_for = AgentsMemory(memory, chat)
        result = await Runner.run(memory_for.attach(helper), "What is my email address?")
        await memory_for.record(result)
        print(result.final_output)
        return str(result.final_output)


if __name__ == "__main__":
    asyncio.run(main())
