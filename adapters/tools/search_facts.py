"""``search_facts`` for function-calling hosts: definitions, ``tools_for`` and the handler.

A host gives the model ``tools_for(memory, conversation)`` (empty when the agent has neither
user nor agent memory, so the tool is never offered in vain) and passes whatever tool call
comes back to ``SearchFactsHandler``. The handler never raises for a bad call: the model gets
a short, readable error and can try again, and the host's loop keeps going::

    handler = SearchFactsHandler(memory, conversation)
    reply = await handler.handle(tool_call)          # any provider's format
    messages.append(reply.openai_chat_message())     # or .openai_responses_item(), ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eden_memory.adapters.tools.arguments import ALIAS, CANONICAL, arguments_model, parameters
from eden_memory.adapters.tools.calls import ToolCall, ToolCallError, call_id_of, read_call
from eden_memory.adapters.tools.definitions import (
    DESCRIPTION,
    FORMATS,
    NAME,
    ToolFormat,
    anthropic_tool,
    definition,
    gemini_declaration,
    json_schema,
    openai_chat_tool,
    openai_responses_tool,
)
from eden_memory.adapters.tools.rendering import render_results
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import EdenMemoryError, InvalidInputError

_KNOWN = {CANONICAL, ALIAS, "top_k", "debug"}


def tools_for(
    memory: MemoryService, conversation: Conversation, fmt: ToolFormat = "openai_chat"
) -> list[dict[str, Any]]:
    """The tools to give the model in this conversation: ``[search_facts]`` or ``[]``."""
    if not memory.search_offered(conversation):
        return []
    return [definition(fmt, memory.settings.search)]


@dataclass(frozen=True)
class ToolReply:
    """The handler's answer: ``text`` for the model, and the call id to answer to."""

    text: str
    call_id: str | None = None
    is_error: bool = False
    name: str = NAME

    def openai_chat_message(self) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": self.call_id or "", "content": self.text}

    def openai_responses_item(self) -> dict[str, Any]:
        return {"type": "function_call_output", "call_id": self.call_id or "", "output": self.text}

    def anthropic_block(self) -> dict[str, Any]:
        block = {"type": "tool_result", "tool_use_id": self.call_id or "", "content": self.text}
        return block | ({"is_error": True} if self.is_error else {})

    def gemini_response(self) -> dict[str, Any]:
        """A dict for ``types.FunctionResponse(**reply.gemini_response())``."""
        key = "error" if self.is_error else "output"
        response = {"name": self.name, "response": {key: self.text}}
        return response | ({"id": self.call_id} if self.call_id else {})


@dataclass
class SearchFactsHandler:
    """Executes ``search_facts`` calls for one conversation."""

    memory: MemoryService
    conversation: Conversation

    def handles(self, call: object) -> bool:
        """Whether ``call`` is a ``search_facts`` call (for hosts with several tools)."""
        try:
            return read_call(call).name == NAME
        except ToolCallError:
            return False

    async def handle(self, call: object) -> ToolReply:
        """Run the call; errors come back as a ``ToolReply`` with ``is_error``, never raised."""
        call_id = call_id_of(call)
        try:
            parsed = read_call(call)
            return ToolReply(await self._run(parsed), call_id)
        except (ToolCallError, InvalidInputError) as error:
            return ToolReply(f"{NAME} error: {error}", call_id, is_error=True)
        except EdenMemoryError as error:
            text = f"{NAME} is unavailable right now ({type(error).__name__}); answer without it."
            return ToolReply(text, call_id, is_error=True)

    async def __call__(self, call: object) -> str:
        """The text for the model (for hosts that only pass strings around)."""
        return (await self.handle(call)).text

    async def _run(self, call: ToolCall) -> str:
        if call.name and call.name != NAME:
            raise ToolCallError(f"unknown tool {call.name!r}; this handler serves {NAME}")
        args = call.arguments
        unknown = sorted(set(args) - _KNOWN)
        if unknown:
            raise ToolCallError(
                f"unknown argument(s) {', '.join(unknown)}; use query, top_k, debug"
            )
        queries = queries_of(args)
        debug = args.get("debug", False)
        if not isinstance(debug, bool):
            raise ToolCallError("debug must be true or false")
        top_k = args.get("top_k")
        found = await self.memory.search_facts(self.conversation, queries, top_k, debug=debug)
        return render_results(queries, found, self.memory.clock.now())


def queries_of(args: dict[str, Any]) -> Any:
    """The queries under ``query`` (canonical) or ``queries``; a lone string is one query.

    Their limits are the service's to check, so its messages reach the model unchanged."""
    given = [name for name in (CANONICAL, ALIAS) if args.get(name) is not None]
    if not given:
        raise ToolCallError('query is required, e.g. {"query": ["Alice\'s email"]}')
    if len(given) == 2:
        raise ToolCallError("give query or queries, not both")
    value = args[given[0]]
    return [value] if isinstance(value, str) else value


__all__ = [
    "DESCRIPTION",
    "FORMATS",
    "NAME",
    "SearchFactsHandler",
    "ToolCall",
    "ToolCallError",
    "ToolFormat",
    "ToolReply",
    "anthropic_tool",
    "arguments_model",
    "definition",
    "gemini_declaration",
    "json_schema",
    "openai_chat_tool",
    "openai_responses_tool",
    "parameters",
    "queries_of",
    "read_call",
    "tools_for",
]
