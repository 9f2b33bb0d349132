"""``EdenSession``: the Agents SDK's ``Session``, recording into eden-memory as a run goes."""

from __future__ import annotations

from typing import Any

from agents import RunContextWrapper, SQLiteSession, TResponseInputItem
from agents.memory import Session, SessionSettings

from eden_memory.adapters.integrations.openai_agents.agent import author_of
from eden_memory.adapters.integrations.openai_agents.items import memory_calls, said, same_items
from eden_memory.adapters.integrations.openai_agents.runs import RECORDED
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService


class EdenSession:
    """A ``Session`` (the SDK's protocol) whose added items are this conversation's turns.

    The items themselves, tool calls and outputs included, are kept verbatim in
    ``underlying_session`` (any SDK session; by default the SDK's in-memory
    ``SQLiteSession``, gone with the process): the memory's session store keeps messages as
    text for formation, which is not what the model needs to continue. ``add_items`` records
    the messages (formation starts when due, as after ``record_messages``), then stores the
    items; a batch that is already the history's end is not added again.

    ``pop_item`` and ``clear_session`` change the history the model sees next, not what the
    memory heard: recorded messages stay and are formed.
    """

    def __init__(
        self,
        memory: MemoryService,
        conversation: Conversation,
        underlying_session: Session | None = None,
    ) -> None:
        self.memory = memory
        self.conversation = conversation
        self.session_id: str = conversation.session_id
        self.underlying_session: Session = (
            SQLiteSession(self.session_id) if underlying_session is None else underlying_session
        )
        self._calls: set[str] = set()  # the memory's own calls, whose outputs may come later

    @property
    def session_settings(self) -> SessionSettings | None:
        """The underlying session's (the ``limit`` of history a run reads)."""
        return self.underlying_session.session_settings

    @session_settings.setter
    def session_settings(self, value: SessionSettings | None) -> None:
        self.underlying_session.session_settings = value

    async def get_items(
        self, limit: int | None = None, wrapper: RunContextWrapper[Any] | None = None
    ) -> list[TResponseInputItem]:
        """The history, oldest first; the latest ``limit`` items when given."""
        return await self.underlying_session.get_items(limit)

    async def add_items(
        self, items: list[TResponseInputItem], wrapper: RunContextWrapper[Any] | None = None
    ) -> None:
        """Record the items' messages, then keep the items; ``wrapper`` (the run's context,
        which the SDK passes) marks the run recorded, for ``AgentsMemory.record``."""
        if not items:
            return
        if same_items(await self.underlying_session.get_items(len(items)), items):
            return  # added already (the memory first, so it holds them too)
        self._calls |= memory_calls(items)
        turn = said(items, author_of(self.conversation), self._calls)
        await self.memory.record_messages(self.conversation, turn)
        await self.underlying_session.add_items(items)
        if wrapper is not None:
            RECORDED.add(wrapper, self.conversation)

    async def pop_item(
        self, wrapper: RunContextWrapper[Any] | None = None
    ) -> TResponseInputItem | None:
        """Remove and return the history's latest item (the memory keeps what it recorded)."""
        return await self.underlying_session.pop_item()

    async def clear_session(self, wrapper: RunContextWrapper[Any] | None = None) -> None:
        """Empty the history (the memory keeps what it recorded and formed)."""
        await self.underlying_session.clear_session()
