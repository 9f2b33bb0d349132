"""``InMemoryContexts``: the contexts kept with their sessions, in the process's memory."""

from __future__ import annotations

from datetime import datetime

from eden_memory.adapters.stores.memory.state import StateHolder
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.ports.stores.contexts import StoredContext, context_variant


class InMemoryContexts(StateHolder):
    """The ``ContextStore`` of the in-memory store (one process: the first level already
    shares everything; this keeps the fake honest)."""

    async def load_context(self, scopes: ActiveScopes) -> StoredContext | None:
        await self._turn()
        return self._state.contexts.get(_key(scopes))

    async def save_context(
        self, scopes: ActiveScopes, context: StoredContext, stale_before: datetime
    ) -> None:
        await self._turn()
        held = self._state.contexts
        stale = [
            k for k, c in held.items() if k[0] == scopes.agent_id and c.built_at < stale_before
        ]
        for key in stale:
            del held[key]
        keys = scopes.keys()
        if tuple(self._state.revisions[k] for k in keys) == context.revisions:
            held[_key(scopes)] = context

    async def drop_contexts(self, agent_id: AgentId) -> int:
        await self._turn()
        held = self._state.contexts
        gone = [k for k in held if k[0] == agent_id]
        for key in gone:
            del held[key]
        return len(gone)


def _key(scopes: ActiveScopes) -> tuple[AgentId, SessionId, str]:
    return (scopes.agent_id, scopes.session_id, context_variant(scopes))
