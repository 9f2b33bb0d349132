"""``InMemoryRevisions``: the change counters every other part moves, and erasing a key."""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.adapters.stores.memory.state import StateHolder
from eden_memory.domain.scopes import ScopeKey


class InMemoryRevisions(StateHolder):
    """The ``RevisionStore`` of the in-memory store."""

    async def revisions(self, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        await self._turn()
        return {key: self._state.revisions[key] for key in keys}

    async def delete_scope(self, key: ScopeKey) -> int:
        await self._turn()
        state = self._state
        facts = [i for i, s in state.facts.items() if s.fact.key == key]
        reflections = [i for i, r in state.reflections.items() if r.key == key]
        for fact_id in facts:
            state.pop(fact_id)
        for reflection_id in reflections:
            del state.reflections[reflection_id]
        blob = state.consolidated.pop(key, None)
        removed = len(facts) + len(reflections) + (blob is not None)
        if removed:
            state.bump([key])
        return removed

    async def scrub(self) -> None:
        """Nothing to do: removed records are gone from the process's dictionaries."""
        await self._turn()
