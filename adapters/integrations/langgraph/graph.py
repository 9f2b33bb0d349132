"""``GraphMemory``: the prompt, the tool and a record node for a graph of your own, bound to one
conversation (``langchain_agent.MemoryMiddleware`` reads it from each invocation instead).

``prompt`` (a runnable) puts the ``<MemoryContext>`` in a system message before the state's
messages; ``tool`` is ``search_facts`` with the library's JSON Schema; ``record`` records the
state's messages. It can run after every step: messages keep their LangGraph ids, and a message
already recorded is not recorded again. The memory's own tool calls are left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import BaseTool, StructuredTool

from eden_memory.adapters.tools.definitions import DESCRIPTION, NAME
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, parameters
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService


@dataclass
class GraphMemory:
    """Prompt, ``search_facts`` and recording for one conversation (see the module)."""

    memory: MemoryService
    conversation: Conversation
    instructions: str = ""

    @property
    def prompt(self) -> Runnable[Any, list[BaseMessage]]:
        """The state's messages after a system message with the instructions and the context
        (in a node of your own, ``await prompt.ainvoke(state)``; or the deprecated
        ``create_react_agent(prompt=...)``)."""

        async def build(state: Mapping[str, Any]) -> list[BaseMessage]:
            xml = (await self.memory.get_context(self.conversation)).xml
            system = "\n\n".join(part for part in (self.instructions, xml) if part)
            messages = list(state["messages"])
            return [SystemMessage(system), *messages] if system else messages

        return RunnableLambda(build, name="eden_memory_prompt")

    def tool(self) -> BaseTool:
        """``search_facts`` as a LangChain tool (offer it when ``memory.search_offered``)."""

        async def search(**arguments: Any) -> str:
            handler = SearchFactsHandler(self.memory, self.conversation)
            return (await handler.handle({"name": NAME, "args": arguments})).text

        schema = parameters(self.memory.settings.search)
        return StructuredTool.from_function(
            coroutine=search, name=NAME, description=DESCRIPTION, args_schema=schema
        )

    async def record(self, state: Any) -> dict[str, Any]:
        """A graph node: record the state's messages (again is harmless); changes no state."""
        users = self.conversation.user_ids
        turn = messages_of(state["messages"], users[0] if len(users) == 1 else None)
        if turn:
            await self.memory.record_messages(self.conversation, turn)
        return {}


def messages_of(messages: Sequence[BaseMessage], author: str | None = None) -> list[dict[str, Any]]:
    """LangChain messages as plain dicts, ids kept; system messages and the memory's own
    tool calls and results left out."""
    own = {
        call["id"]
        for m in messages
        if isinstance(m, AIMessage)
        for call in m.tool_calls
        if call["name"] == NAME
    }
    out: list[dict[str, Any]] = []
    for m in messages:
        entry: dict[str, Any] = {"id": m.id} if m.id else {}
        if isinstance(m, HumanMessage):
            out.append(entry | {"role": "user", "text": str(m.text), "author_id": author})
        elif isinstance(m, AIMessage):
            calls = [c for c in m.tool_calls if c["name"] != NAME]
            said = [str(m.text), *(f"[called {c['name']} {json.dumps(c['args'])}]" for c in calls)]
            text = "\n".join(s for s in said if s)
            if text:
                out.append(entry | {"role": "assistant", "text": text})
        elif isinstance(m, ToolMessage) and m.tool_call_id not in own:
            out.append(entry | {"role": "tool", "text": str(m.text)})
    return out


__all__ = ["GraphMemory", "messages_of"]
