"""Memory for an agent of ``langchain.agents.create_agent`` (extra ``langgraph``), as one
middleware: LangGraph 1's supported agent, which replaced ``create_react_agent``::

    agent = create_agent(model, tools, system_prompt="...",
                         middleware=[MemoryMiddleware(memory, chat)])
    state = await agent.ainvoke({"messages": [("user", "Where do I live?")]})

Before every model call the ``<MemoryContext>`` goes after the system prompt; the
middleware registers ``search_facts`` when the conversation may search; after the run the
state's messages are recorded (``GraphMemory.record``: ids kept, memory's own tool left out).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from eden_memory.adapters.integrations.langgraph import GraphMemory
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import MissingExtraError

try:
    from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
    from langchain_core.messages import SystemMessage
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the LangChain agent integration", "langgraph", "langchain") from None

Handler = Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]]


class MemoryMiddleware(AgentMiddleware[Any, Any, Any]):
    """Context, ``search_facts`` and recording for one conversation (see the module)."""

    def __init__(self, memory: MemoryService, conversation: Conversation) -> None:
        self.graph = GraphMemory(memory, conversation)
        self.tools = [self.graph.tool()] if memory.search_offered(conversation) else []

    async def awrap_model_call(self, request: ModelRequest[Any], handler: Handler) -> Any:
        xml = (await self.graph.memory.get_context(self.graph.conversation)).xml
        if xml:
            system = "\n\n".join(part for part in (request.system_prompt, xml) if part)
            request = request.override(system_message=SystemMessage(system))
        return await handler(request)

    async def aafter_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        await self.graph.record(state)
        return None


__all__ = ["MemoryMiddleware"]
