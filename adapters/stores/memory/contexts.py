"""``InMemoryContexts``: the contexts kept with their sessions, in the process's memory."""

from __future__ import annotations

from datetime import datetime

from eden_memory.adapters.stores.memory.state import StateHolder
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.ports.stores.contexts import StoredContext, context_variant


class InMemoryContexts(StateHolder):
    """The ``ContextStore`` of the in-memory store (one process: the first level already
    shares everything; this keeps the fake honest).

    Each agent's contexts are held in the order they were saved, which is the order they
    were built but for builds that overlapped; stale ones are dropped from the front, so a
    save costs O(1) however many sessions are held (such an overlapped one leaves a little
    late: its reader still judges its age)."""

    async def load_context(self, scopes: ActiveScopes, recipe: str = "") -> StoredContext | None:
        await self._turn()
        held = self._state.contexts.get(scopes.agent_id, {})
        return held.get(_key(scopes, recipe))

    async def save_context(
        self, scopes: ActiveScopes, context: StoredContext, stale_before: datetime, recipe: str = ""
    ) -> None:
        await self._turn()
        held = self._state.contexts.setdefault(scopes.agent_id, {})
        while held:
            oldest = next(iter(held))
            if held[oldest].built_at >= stale_before:
                break
            del held[oldest]
        keys = scopes.keys()
        if tuple(self._state.revisions[k] for k in keys) == context.revisions:
            held.pop(_key(scopes, recipe), None)  # to the back: the newest saved
            held[_key(scopes, recipe)] = context

    async def drop_contexts(self, agent_id: AgentId) -> int:
        await self._turn()
        return len(self._state.contexts.pop(agent_id, {}))


def _key(scopes: ActiveScopes, recipe: str) -> tuple[SessionId, str]:
    return (scopes.session_id, context_variant(scopes, recipe))
