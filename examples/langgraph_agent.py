"""A LangGraph ReAct agent with eden-memory: the prompt, the tool, and the turn recorded.

Pass any LangChain chat model that supports tools (``ChatOpenAI(model="gpt-5-mini")``...);
the test suite passes a scripted one, offline.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.prebuilt import create_react_agent  # deprecated for langchain.agents in v1

from eden_memory.adapters.integrations.langgraph import GraphMemory
from examples.common import AGENT, remembering_memory


async def main(model: BaseChatModel) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        # The lines a host adds: the prompt and the tool, and recording the state after.
        memory_for = GraphMemory(memory, chat, instructions="You are a helpful assistant.")
        agent: Any = create_react_agent(model, [memory_for.tool()], prompt=memory_for.prompt)
        state = await agent.ainvoke({"messages": [("user", "What is my email address?")]})
        await memory_for.record(state)
        answer = str(state["messages"][-1].text)
        print(answer)
        return answer


if __name__ == "__main__":
    from langchain_openai import ChatOpenAI  # type: ignore[import-not-found]

    asyncio.run(main(ChatOpenAI(model="gpt-5-mini")))
