"""Memory for an agent of ``langchain.agents.create_agent`` (extra ``langgraph``), as one
middleware: LangGraph 1's supported agent, which replaced ``create_react_agent``.

One compiled agent serves every user: each invocation says who talks in which session, in
its runtime context or its config (``langgraph.invocation``), sync or async::

    agent = create_agent(model, tools, middleware=[MemoryMiddleware(memory, agent="support-bot")])
    agent.invoke({"messages": [("user", "Where do I live?")]},
                 config={"configurable": {"thread_id": "s1", "user_id": "alice"}})

Before every model call the ``<MemoryContext>`` goes after the system prompt; ``search_facts``
is offered when the conversation may search; after the run the state's messages are recorded
(``GraphMemory.record``: ids kept, the memory's own tool left out). ``MemoryMiddleware(memory,
conversation)`` still binds the middleware to one conversation, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from eden_memory.adapters.integrations.langgraph import GraphMemory, LoopBridge, conversation_of
from eden_memory.adapters.tools.definitions import DESCRIPTION, NAME
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, parameters
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, MissingExtraError
from eden_memory.domain.scopes import AgentMemoryConfig

try:
    from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
    from langchain_core.messages import SystemMessage
    from langchain_core.tools import BaseTool, StructuredTool
    from langgraph.config import get_config
    from langgraph.prebuilt import ToolRuntime
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the LangChain agent integration", "langgraph", "langchain") from None

Handler = Callable[[ModelRequest[Any]], ModelResponse[Any]]
AsyncHandler = Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]]


class MemoryMiddleware(AgentMiddleware[Any, Any, Any]):
    """Context, ``search_facts`` and recording (see the module).

    ``agent``: the agent's id or config, each invocation giving the user and session; or
    ``conversation``: one conversation for every invocation. ``loop``: the event loop the
    memory runs on, for sync invocations (``LoopBridge``: by default the running one)."""

    def __init__(
        self,
        memory: MemoryService,
        conversation: Conversation | None = None,
        *,
        agent: AgentMemoryConfig | str | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if (conversation is None) == (agent is None):
            raise InvalidInputError(
                "MemoryMiddleware takes agent= (each invocation names its user and session) "
                "or one conversation, not both"
            )
        self.memory = memory
        self.conversation = conversation
        self.agent = AgentMemoryConfig(agent) if isinstance(agent, str) else agent
        self.bridge = LoopBridge(loop)
        # A user's session: the most this agent may ever search (calls that may not drop it).
        widest = conversation or memory.conversation(agent or "", "any", ["any"])
        self.tools = [self._tool()] if memory.search_offered(widest) else []

    def wrap_model_call(self, request: ModelRequest[Any], handler: Handler) -> Any:
        chat = self._conversation(request.runtime.context, _config())
        xml = self.bridge.run(lambda: self._xml(chat))
        return handler(self._with_memory(request, chat, xml))

    async def awrap_model_call(self, request: ModelRequest[Any], handler: AsyncHandler) -> Any:
        chat = self._conversation(request.runtime.context, _config())
        xml = await self.bridge.arun(lambda: self._xml(chat))
        return await handler(self._with_memory(request, chat, xml))

    def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        chat = self._conversation(runtime.context, _config())
        return self.bridge.run(lambda: GraphMemory(self.memory, chat).record(state)) or None

    async def aafter_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        chat = self._conversation(runtime.context, _config())
        return await self.bridge.arun(lambda: GraphMemory(self.memory, chat).record(state)) or None

    def _conversation(self, context: object, config: dict[str, Any] | None) -> Conversation:
        if self.conversation is not None:
            return self.conversation
        assert self.agent is not None  # one of the two, checked when made
        return conversation_of(self.memory, self.agent, context, config)

    async def _xml(self, chat: Conversation) -> str:
        return (await self.memory.get_context(chat)).xml

    def _with_memory(
        self, request: ModelRequest[Any], chat: Conversation, xml: str
    ) -> ModelRequest[Any]:
        if xml:
            system = "\n\n".join(part for part in (request.system_prompt, xml) if part)
            request = request.override(system_message=SystemMessage(system))
        if not self.memory.search_offered(chat):  # e.g. user memory only, and no user
            kept = [t for t in request.tools if not (isinstance(t, BaseTool) and t.name == NAME)]
            request = request.override(tools=kept)
        return request

    def _tool(self) -> BaseTool:
        """``search_facts`` for the invocation it runs in (LangGraph injects ``runtime``)."""

        async def search(runtime: ToolRuntime, **arguments: Any) -> str:
            return await self.bridge.arun(lambda: self._search(runtime, arguments))

        def search_sync(runtime: ToolRuntime, **arguments: Any) -> str:
            return self.bridge.run(lambda: self._search(runtime, arguments))

        schema = parameters(self.memory.settings.search)
        return StructuredTool.from_function(
            func=search_sync,
            coroutine=search,
            name=NAME,
            description=DESCRIPTION,
            args_schema=schema,
        )

    async def _search(self, runtime: ToolRuntime, arguments: dict[str, Any]) -> str:
        chat = self._conversation(runtime.context, dict(runtime.config))
        handler = SearchFactsHandler(self.memory, chat)
        return (await handler.handle({"name": NAME, "args": arguments})).text


def _config() -> dict[str, Any] | None:
    """The invocation's config (LangGraph keeps it for the node that runs)."""
    try:
        return dict(get_config())
    except RuntimeError:  # called outside a graph run
        return None


__all__ = ["MemoryMiddleware"]
