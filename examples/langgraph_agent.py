"""A LangGraph agent with eden-memory: LangChain's ``create_agent`` with one middleware, and
LangGraph's store interface on the same memory.

    pip install -e ".[embedded,langgraph]"
    python examples/langgraph_agent.py              # offline: a scripted chat model (below)
    python examples/langgraph_agent.py --real       # openai:gpt-5-mini; needs OPENAI_API_KEY
                                                    # and pip install langchain-openai

One compiled agent serves every user: each invocation names its user (the runtime context)
and its session (the config's ``thread_id``). LangChain's own fake chat models do not take
tools, so ``OfflineChatModel`` stands in: it calls ``search_facts`` once and answers with what
it found. With ``--real`` the model comes from ``init_chat_model``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.integrations.langchain_agent import MemoryMiddleware
    from eden_memory.adapters.integrations.langgraph import EdenStore
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


@dataclass
class Context:
    """Who is talking: LangGraph passes it to the middleware and to tools (``runtime.context``)."""

    user_id: str


async def main(real: bool = False) -> str:
    model = init_chat_model("openai:gpt-5-mini") if real else OfflineChatModel()
    async with remembering_memory() as memory:
        # The lines a host adds: the middleware (context, search_facts, each run recorded),
        # and the store for its own tools (runtime.store). One agent for every user.
        agent = create_agent(
            model,
            system_prompt="You are a helpful assistant.",
            middleware=[MemoryMiddleware(memory, agent=AGENT)],
            store=EdenStore(memory),
            context_schema=Context,
        )
        question = HumanMessage("What is my email address?")
        state = await agent.ainvoke(
            {"messages": [question]},
            {"configurable": {"thread_id": "today"}},
            context=Context("alice"),
        )
        answer = str(state["messages"][-1].text)
        print(answer)
        recorded = await memory.record_messages(memory.conversation(AGENT, "today", ["alice"]), [])
        print("messages recorded:", recorded.state.pending_messages if recorded.state else 0)

        # The same agent for Bob, called as a sync host calls it (invoke, here in a thread:
        # this script's own event loop runs the memory). Alice's memory is not his.
        bob = await asyncio.to_thread(
            lambda: agent.invoke(
                {"messages": [question]},
                {"configurable": {"thread_id": "bob-today"}},
                context=Context("bob"),
            )
        )
        print("bob is told alice's email:", "alice@example.com" in str(bob["messages"][-1].text))

        # LangGraph's store interface: Alice's facts are items of ("support-bot", "user", "alice").
        store = EdenStore(memory)
        for item in await store.asearch((AGENT.agent_id, "user", "alice"), query="email"):
            print("store:", item.namespace, item.value["content"])
        return answer


if __name__ == "__main__":
    install = "pip install langchain-openai"
    run_example(main, keys=["OPENAI_API_KEY"], packages={"langchain_openai": install})
