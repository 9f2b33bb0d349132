"""Memory for a pydantic-ai agent, as one capability (extra ``pydantic-ai``).

``EdenMemory(memory, conversation)`` gives the agent three things: the memory context as
instructions (read before every model request, so it is always the store's latest), the
``search_facts`` tool (when the conversation may search), and the run's new messages
recorded after each run (formation then runs in the background when due)::

    agent = Agent(model, capabilities=[EdenMemory(memory, chat)])
    result = await agent.run("Where do I live?")

The memory's own ``search_facts`` calls and results are not recorded: they are memory read
back, and recording them would form the same facts again from their echo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from eden_memory.adapters.tools.definitions import DESCRIPTION, NAME
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, parameters
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import MissingExtraError

try:
    from pydantic_ai import RunContext, Tool
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )
    from pydantic_ai.run import AgentRunResult
    from pydantic_ai.toolsets import FunctionToolset
except ModuleNotFoundError as missing:  # pragma: no cover - exercised without the extra
    raise MissingExtraError(
        "the pydantic-ai integration", "pydantic-ai", "pydantic_ai"
    ) from missing


@dataclass
class EdenMemory(AbstractCapability[Any]):
    """Context, ``search_facts`` and recording for one conversation (see the module)."""

    memory: MemoryService
    conversation: Conversation
    record: bool = True
    _toolset: FunctionToolset[Any] | None = field(default=None, init=False, repr=False)

    def get_instructions(self) -> Any:
        async def context(ctx: RunContext[Any]) -> str:
            return (await self.memory.get_context(self.conversation)).xml

        return context

    def get_toolset(self) -> FunctionToolset[Any] | None:
        if not self.memory.search_offered(self.conversation):
            return None
        if self._toolset is None:
            schema = parameters(self.memory.settings.search)
            tool = Tool.from_schema(self._search, NAME, DESCRIPTION, schema)
            self._toolset = FunctionToolset([tool])
        return self._toolset

    async def after_run(
        self, ctx: RunContext[Any], *, result: AgentRunResult[Any]
    ) -> AgentRunResult[Any]:
        if self.record:
            turn = messages_of(result.new_messages(), self._author())
            if turn:
                await self.memory.record_messages(self.conversation, turn)
        return result

    async def _search(self, **arguments: Any) -> str:
        handler = SearchFactsHandler(self.memory, self.conversation)
        return (await handler.handle({"name": NAME, "args": arguments})).text

    def _author(self) -> str | None:
        users = self.conversation.user_ids
        return users[0] if len(users) == 1 else None


def messages_of(
    messages: Sequence[ModelMessage], author: str | None = None
) -> list[dict[str, Any]]:
    """A run's messages as plain dicts for ``record_messages``: user prompts, the model's
    text, other tools' calls and results; instructions, reasoning and memory's own tool
    left out."""
    out: list[dict[str, Any]] = []
    for message in messages:
        for part in message.parts:
            if isinstance(message, ModelRequest) and isinstance(part, UserPromptPart):
                text = part.content if isinstance(part.content, str) else _user_text(part.content)
                out.append({"role": "user", "text": text, "author_id": author})
            elif isinstance(part, ToolReturnPart) and part.tool_name != NAME:
                out.append({"role": "tool", "text": part.model_response_str()})
            elif isinstance(message, ModelResponse) and isinstance(part, TextPart):
                out.append({"role": "assistant", "text": part.content})
            elif isinstance(part, ToolCallPart) and part.tool_name != NAME:
                out.append(
                    {
                        "role": "assistant",
                        "text": f"[called {part.tool_name} {part.args_as_json_str()}]",
                    }
                )
    return out


def _user_text(content: Sequence[Any]) -> str:
    return "\n".join(item if isinstance(item, str) else "[media]" for item in content)


__all__ = ["EdenMemory", "messages_of"]
