"""``AgentsMemory``: the memory context and ``search_facts`` on an agent, and ``record``."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agents import Agent, FunctionTool, RunContextWrapper
from agents.items import RunItem, ToolApprovalItem
from agents.result import RunResult, RunResultStreaming
from agents.tool_context import ToolContext

from eden_memory.adapters.integrations.openai_agents.items import said, turn_input
from eden_memory.adapters.integrations.openai_agents.runs import RECORDED
from eden_memory.adapters.tools.definitions import DESCRIPTION, NAME
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, parameters
from eden_memory.application.conversation import Conversation
from eden_memory.application.formation.lifecycle import Recorded
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError

# What ``Agent(instructions=...)`` takes: a string, or a function of (context, agent),
# sync or async, called before every model call.
OwnInstructions = str | Callable[[RunContextWrapper[Any], Agent[Any]], str | Awaitable[str]] | None


@dataclass(frozen=True)
class MemoryInstructions:
    """An agent's own instructions, then the conversation's ``<MemoryContext>``.

    The SDK calls it before every model call, so the context is the store's latest and an
    agent's own instruction function still runs, with the same (context, agent)."""

    memory: MemoryService
    conversation: Conversation
    own: OwnInstructions = None

    async def __call__(self, ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
        own = self.own(ctx, agent) if callable(self.own) else self.own
        text = await own if inspect.isawaitable(own) else own
        xml = (await self.memory.get_context(self.conversation)).xml
        return "\n\n".join(part for part in (text, xml) if part)


@dataclass
class AgentsMemory:
    """Context, ``search_facts`` and recording for one conversation (see the package)."""

    memory: MemoryService
    conversation: Conversation

    def attach(self, agent: Agent[Any]) -> Agent[Any]:
        """A copy of ``agent`` whose instructions are its own (a string or a function) and
        then the memory context, with ``search_facts`` beside its tools.

        Raises ``InvalidInputError`` for instructions it cannot keep, and for an agent that
        already has memory attached (attach the original agent again instead)."""
        own = agent.instructions
        if isinstance(own, MemoryInstructions):
            raise InvalidInputError(
                f"agent {agent.name!r} already has eden-memory attached; attach the original"
                " agent (each attach is a copy for one conversation)"
            )
        _check_instructions(own, agent.name)
        return agent.clone(
            instructions=MemoryInstructions(self.memory, self.conversation, own),
            tools=[*agent.tools, *self.tools()],
        )

    def instructions(self, base: OwnInstructions = "") -> MemoryInstructions:
        """Instructions for an agent built by hand: ``base``, then the ``<MemoryContext>``."""
        _check_instructions(base, "")
        return MemoryInstructions(self.memory, self.conversation, base)

    def tools(self) -> list[FunctionTool]:
        """``[search_facts]``, or nothing when this conversation may not search."""
        if not self.memory.search_offered(self.conversation):
            return []
        schema = parameters(self.memory.settings.search)
        return [FunctionTool(NAME, DESCRIPTION, schema, self._search, strict_json_schema=False)]

    async def record(self, result: RunResult | RunResultStreaming) -> Recorded:
        """Record a run's turn: the input its caller added and the items the run produced.

        The conversation so far, which ``result.input`` starts with under ``session=`` or
        when built from ``to_input_list()``, was recorded with the runs that said it; a run
        whose ``EdenSession`` recorded it for this conversation adds nothing. A run paused
        for a tool's approval adds nothing either: the result of its resumption holds the
        whole turn again (input, the paused run's items, then the rest)."""
        done = not result.interruptions
        if not done or RECORDED.holds(result.context_wrapper, self.conversation):
            return await self.memory.record_messages(self.conversation, [])
        produced = [i.to_input_item() for i in result.new_items if not _approval(i)]
        items = [*turn_input(result.input), *produced]
        return await self.memory.record_messages(self.conversation, said(items, self._author()))

    async def _search(self, ctx: ToolContext[Any], arguments: str) -> str:
        handler = SearchFactsHandler(self.memory, self.conversation)
        return (await handler.handle({"name": NAME, "arguments": arguments})).text

    def _author(self) -> str | None:
        return author_of(self.conversation)


def _approval(item: RunItem) -> bool:
    """A request for a person's approval, which is not something said (the SDK's own
    ``to_input_list`` leaves it out; ``to_input_item`` refuses it)."""
    return isinstance(item, ToolApprovalItem)


def author_of(conversation: Conversation) -> str | None:
    """The author of the conversation's user messages: its user, when it has exactly one."""
    users = conversation.user_ids
    return users[0] if len(users) == 1 else None


def _check_instructions(own: object, name: str) -> None:
    """Refuse, at attach, what the SDK would refuse (or drop) at the first model call."""
    if own is None or isinstance(own, str):
        return
    if not callable(own):
        raise InvalidInputError(
            f"agent {name!r}: instructions must be a string or a function (context, agent) "
            f"to be kept beside the memory context, not {type(own).__name__}"
        )
    try:
        count = len(inspect.signature(own).parameters)
    except (TypeError, ValueError):  # a builtin without a signature: the SDK's call decides
        return
    if count != 2:
        raise InvalidInputError(
            f"agent {name!r}: an instructions function must take exactly 2 arguments "
            f"(context, agent), as the Agents SDK calls it; this one takes {count}"
        )
