"""A LangGraph agent with eden-memory: LangChain's ``create_agent`` with one middleware.

    pip install -e ".[embedded,langgraph]"
    python examples/langgraph_agent.py              # offline: a scripted chat model (below)
    python examples/langgraph_agent.py --real       # openai:gpt-5-mini; needs OPENAI_API_KEY
                                                    # and pip install langchain-openai

LangChain's own fake chat models do not take tools, so ``OfflineChatModel`` stands in: it
calls ``search_facts`` once and answers with what it found. With ``--real`` the model comes
from ``init_chat_model``: any provider LangChain has a package for works the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.integrations.langchain_agent import MemoryMiddleware
except MissingExtraError as missing:  # without the extra: one line saying which
    sys.exit(f"error: {missing}")

from langchain.agents import create_agent
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from eden_memory.demo.alice import AGENT, remembering_memory, run_example


class OfflineChatModel(BaseChatModel):
    """Searches memory for the email, then answers with the tool's output."""

    @property
    def _llm_type(self) -> str:
        return "offline"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            reply = AIMessage(f"From memory: {last.text}")
        else:
            call = {"name": "search_facts", "args": {"query": ["email"]}, "id": "c1"}
            reply = AIMessage("", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=reply)])


async def main(real: bool = False) -> str:
    model = init_chat_model("openai:gpt-5-mini") if real else OfflineChatModel()
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
    install = "pip install langchain-openai"
    run_example(main, keys=["OPENAI_API_KEY"], packages={"langchain_openai": install})
