"""A pydantic-ai agent with eden-memory: one capability added to an existing agent.

    pip install -e ".[embedded,pydantic-ai]"
    python examples/pydantic_ai_agent.py            # offline: pydantic-ai's FunctionModel
    python examples/pydantic_ai_agent.py --real     # openai:gpt-5-mini; needs OPENAI_API_KEY
                                                    # and pip install -e ".[pydantic-ai,openai]"

Offline, the "model" is a function that calls ``search_facts`` once and answers with what it
found. With a real model nothing else changes: any model name pydantic-ai knows works.
"""

from __future__ import annotations

import json
import sys

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
except MissingExtraError as missing:  # without the extra: one line saying which
    sys.exit(f"error: {missing}")

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from eden_memory.demo.alice import AGENT, remembering_memory, run_example


def offline_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Searches memory for the email, then answers with the tool's result."""
    returned = [p for p in messages[-1].parts if p.part_kind == "tool-return"]
    if not returned:
        args = json.dumps({"query": ["Alice's email"]})
        return ModelResponse(parts=[ToolCallPart("search_facts", args, "call-1")])
    return ModelResponse(parts=[TextPart(f"From memory: {returned[0].model_response_str()}")])


async def main(real: bool = False) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        model = "openai:gpt-5-mini" if real else FunctionModel(offline_model)
        # The lines a host adds to its agent: the capability, and that is all.
        agent = Agent(model, capabilities=[EdenMemory(memory, chat)])
        result = await agent.run("What is my email address?")
        print(result.output)
        recorded = await memory.record_messages(chat, [])  # the run was recorded
        print("messages recorded:", recorded.state.pending_messages if recorded.state else 0)
        return result.output


if __name__ == "__main__":
    install = 'pip install -e ".[pydantic-ai,openai]"'
    run_example(main, keys=["OPENAI_API_KEY"], packages={"openai": install})
