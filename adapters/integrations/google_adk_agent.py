"""The agent's side of the Google ADK integration: one tool that reads and searches memory.

``MemoryTool`` puts the ``<MemoryContext>`` after the agent's instructions before every model
call (ADK lets a tool change the request, as its ``preload_memory`` does) and declares
``search_facts`` with the library's JSON Schema when the conversation may search. The
conversation is the tool context's: ADK app, user and session. ``TurnRecorder`` is an
``after_agent_callback`` recording the invocation's events.
"""

from __future__ import annotations

from typing import Any, Protocol

from eden_memory.adapters.tools.definitions import DESCRIPTION, NAME
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, parameters
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import MissingExtraError

try:
    from google.adk.agents.callback_context import CallbackContext
    from google.adk.events import Event
    from google.adk.models.llm_request import LlmRequest
    from google.adk.tools.base_tool import BaseTool
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the Google ADK integration", "adk", "google-adk") from None


class Service(Protocol):
    """What the agent's side needs of ``EdenMemoryService``."""

    memory: MemoryService

    def conversation(self, app_name: str, user_id: str, session_id: str) -> Conversation: ...

    async def add_events_to_memory(
        self, *, app_name: str, user_id: str, events: Any, session_id: str | None = None
    ) -> None: ...


def conversation_of(service: Service, context: CallbackContext) -> Conversation:
    session = context.session
    return service.conversation(session.app_name, session.user_id, session.id)


class MemoryTool(BaseTool):
    """The memory context in the instructions, and ``search_facts`` (see the module)."""

    def __init__(self, service: Service) -> None:
        super().__init__(name=NAME, description=DESCRIPTION)
        self.service = service

    def _get_declaration(self) -> types.FunctionDeclaration:
        schema = parameters(self.service.memory.settings.search)
        return types.FunctionDeclaration(
            name=NAME, description=DESCRIPTION, parameters_json_schema=schema
        )

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        chat = conversation_of(self.service, tool_context)
        xml = (await self.service.memory.get_context(chat)).xml
        if xml:
            llm_request.append_instructions([xml])
        if self.service.memory.search_offered(chat):
            llm_request.append_tools([self])

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        """The facts found as ``{"output": text}``; bad arguments as ``{"error": text}``."""
        chat = conversation_of(self.service, tool_context)
        reply = await SearchFactsHandler(self.service.memory, chat).handle(
            {"name": NAME, "args": args}
        )
        return reply.gemini_response()["response"]


class TurnRecorder:
    """An ``after_agent_callback``: the invocation's events go to ``add_events_to_memory``
    (recorded again, a message is stored once: events keep their ids)."""

    def __init__(self, service: Service) -> None:
        self.service = service

    async def __call__(self, callback_context: CallbackContext) -> None:
        session = callback_context.session
        invocation = callback_context.invocation_id
        events: list[Event] = [e for e in session.events if e.invocation_id == invocation]
        await self.service.add_events_to_memory(
            app_name=session.app_name, user_id=session.user_id, events=events, session_id=session.id
        )


__all__ = ["MemoryTool", "TurnRecorder"]
