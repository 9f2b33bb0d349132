"""A pydantic-ai agent with eden-memory: one capability added to an existing agent.

Offline with pydantic-ai's ``FunctionModel``: the "model" calls ``search_facts`` once and
answers with what it found. With a real model, pass ``"openai:gpt-5-mini"`` (or any model
pydantic-ai knows) instead; nothing else changes.
"""

from __future__ import annotations

import asyncio
import json

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models import Model
from pydantic_ai.models.function import AgentInfo, FunctionModel

from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
from examples.common import AGENT, remembering_memory


def offline_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Searches memory for the email, then answers with the tool's result."""
    returned = [p for p in messages[-1].parts if p.part_kind == "tool-return"]
    if not returned:
        args = json.dumps({"query": ["Alice's email"]})
        return ModelResponse(parts=[ToolCallPart("search_facts", args, "call-1")])
    return ModelResponse(parts=[TextPart(f"From memory: {returned[0].model_response_str()}")])


async def main(model: Model | str | None = None) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        # The lines a host adds to its agent: the capability, and that is all.
        agent = Agent(
            model or FunctionModel(offline_model), capabilities=[EdenMemory(memory, chat)]
        )
        result = await agent.run("What is my email address?")
        print(result.output)
        recorded = await memory.record_messages(chat, [])  # the run was recorded
        print("messages recorded:", recorded.state.pending_messages if recorded.state else 0)
        return result.output


if __name__ == "__main__":
    asyncio.run(main())
