"""A LangGraph agent with eden-memory: LangChain's ``create_agent`` with one middleware.

Pass any LangChain chat model that supports tools (``ChatOpenAI(model="gpt-5-mini")``...);
the test suite passes a scripted one, offline.
"""

from __future__ import annotations

import asyncio

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

from eden_memory.adapters.integrations.langchain_agent import MemoryMiddleware
from examples.common import AGENT, remembering_memory


async def main(model: BaseChatModel) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        # The line a host adds: the middleware (context, search_facts, the run recorded).
        agent = create_agent(
            model,
            system_prompt="You are a helpful assistant.",
            middleware=[MemoryMiddleware(memory, chat)],
        )
        state = await agent.ainvoke({"messages": [HumanMessage("What is my email address?")]})
        answer = str(state["messages"][-1].text)
        print(answer)
        recorded = await memory.record_messages(chat, [])  # the run was recorded
        print("messages recorded:", recorded.state.pending_messages if recorded.state else 0)
        return answer


if __name__ == "__main__":
    from langchain_openai import ChatOpenAI  # type: ignore[import-not-found]

    asyncio.run(main(ChatOpenAI(model="gpt-5-mini")))
