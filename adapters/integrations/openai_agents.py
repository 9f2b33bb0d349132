"""Memory for an OpenAI Agents SDK agent (extra ``openai-agents``).

``AgentsMemory(memory, conversation)`` adds the memory context to an agent's instructions
(read at every model call), gives it the ``search_facts`` tool, and records a run's items::

    memory_for = AgentsMemory(memory, chat)
    agent = memory_for.attach(agent)
    result = await Runner.run(agent, "Where do I live?")
    await memory_for.record(result)

The memory's own ``search_facts`` calls and results are not recorded (memory read back would
be formed again from its echo).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from eden_memory.adapters.tools.definitions import DESCRIPTION, NAME
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, parameters
from eden_memory.application.conversation import Conversation
from eden_memory.application.lifecycle import Recorded
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import MissingExtraError

try:
    from agents import Agent, FunctionTool, RunContextWrapper, RunResult
    from agents.tool_context import ToolContext
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the OpenAI Agents integration", "openai-agents", "agents") from None

Instructions = Callable[[RunContextWrapper[Any], Agent[Any]], Awaitable[str]]


@dataclass
class AgentsMemory:
    """Context, ``search_facts`` and recording for one conversation (see the module)."""

    memory: MemoryService
    conversation: Conversation

    def attach(self, agent: Agent[Any]) -> Agent[Any]:
        """A copy of ``agent`` with the memory context after its own instructions, and the
        tool beside its own tools (static string instructions only; else use the parts)."""
        own = agent.instructions if isinstance(agent.instructions, str) else ""
        return agent.clone(instructions=self.instructions(own), tools=[*agent.tools, *self.tools()])

    def instructions(self, base: str = "") -> Instructions:
        """Dynamic instructions: ``base``, then the current ``<MemoryContext>``."""

        async def build(ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
            xml = (await self.memory.get_context(self.conversation)).xml
            return "\n\n".join(part for part in (base, xml) if part)

        return build

    def tools(self) -> list[FunctionTool]:
        """``[search_facts]``, or nothing when this conversation may not search."""
        if not self.memory.search_offered(self.conversation):
            return []
        schema = parameters(self.memory.settings.search)
        return [FunctionTool(NAME, DESCRIPTION, schema, self._search, strict_json_schema=False)]

    async def record(self, result: RunResult) -> Recorded:
        """Record the run's new items (and its input) as this conversation's turn."""
        items = [*_as_list(result.input), *(item.to_input_item() for item in result.new_items)]
        return await self.memory.record_messages(self.conversation, said(items, self._author()))

    async def _search(self, ctx: ToolContext[Any], arguments: str) -> str:
        handler = SearchFactsHandler(self.memory, self.conversation)
        return (await handler.handle({"name": NAME, "arguments": arguments})).text

    def _author(self) -> str | None:
        users = self.conversation.user_ids
        return users[0] if len(users) == 1 else None


def said(items: Sequence[Any], author: str | None = None) -> list[dict[str, Any]]:
    """Responses items without the memory's own tool calls, users' messages attributed."""
    own = {
        item.get("call_id")
        for item in items
        if isinstance(item, dict)
        and item.get("type") == "function_call"
        and item.get("name") == NAME
    }
    kept = [item for item in items if not (isinstance(item, dict) and item.get("call_id") in own)]
    return [
        {**item, "author_id": author}
        if isinstance(item, dict) and item.get("role") == "user" and author
        else item
        for item in kept
    ]


def _as_list(value: str | list[Any]) -> list[Any]:
    return [{"role": "user", "content": value}] if isinstance(value, str) else list(value)


__all__ = ["AgentsMemory", "said"]
