"""``InMemoryStore``: the whole ``MemoryStore`` port in one process, for tests and demos."""

from __future__ import annotations

import inspect
from collections import deque
from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.stores.memory.facts import FactTable
from eden_memory.adapters.stores.memory.reflections import ConsolidatedTable, ReflectionTable
from eden_memory.adapters.stores.memory.search import TEXT_SCORE_THRESHOLD, FactSearch
from eden_memory.adapters.stores.memory.sessions import SessionTable
from eden_memory.adapters.stores.memory.state import MemoryState
from eden_memory.domain.scopes import ScopeKey


class InMemoryStore(FactTable, FactSearch, ReflectionTable, ConsolidatedTable, SessionTable):
    """Every store port, held in dictionaries; passes the same contract suite as real stores.

    * Semantic search is exact cosine over the visible facts of the current space.
    * Keyword search is BM25 (k1 = 1.2, b = 0.75) over lowercase Unicode word tokens of the
      visible facts. ``text_score_threshold`` is 0.0: any matching term counts, because BM25
      scores scale with the logarithm of the corpus size and no absolute floor fits a
      three-fact test store and a large one alike (see ``search.TEXT_SCORE_THRESHOLD``).
    * Calls are atomic: each yields to the event loop once on entry, then never awaits, so of
      N concurrent claimers exactly one wins and compare-and-set is exact. One event loop
      only; it is not thread-safe.
    * ``fail_next(method, error)`` makes the next call of a method raise, to test recovery.
    """

    def __init__(self) -> None:
        self._state = MemoryState()
        self._faults: dict[str, deque[tuple[Exception, bool]]] = {}
        self.closed = False

    async def revisions(self, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        await self._turn()
        return {key: self._state.revisions[key] for key in keys}

    async def delete_scope(self, key: ScopeKey) -> int:
        await self._turn()
        state = self._state
        facts = [i for i, s in state.facts.items() if s.fact.key == key]
        reflections = [i for i, r in state.reflections.items() if r.key == key]
        for fact_id in facts:
            del state.facts[fact_id]
        for reflection_id in reflections:
            del state.reflections[reflection_id]
        blob = state.consolidated.pop(key, None)
        removed = len(facts) + len(reflections) + (blob is not None)
        if removed:
            state.bump([key])
        return removed

    async def close(self) -> None:
        self.closed = True

    def fail_next(self, method_name: str, error: Exception, *, after: bool = False) -> None:
        """Make the next call of ``method_name`` raise ``error``; calls queue up.

        With ``after=True`` the call does its work first and then raises, like a write whose
        acknowledgement was lost: the caller sees a failure although the store changed.
        """
        original = getattr(type(self), method_name, None)
        if not inspect.iscoroutinefunction(original):
            raise ValueError(f"InMemoryStore has no async method {method_name!r}")
        self._faults.setdefault(method_name, deque()).append((error, after))
        setattr(self, method_name, self._failing(method_name))

    def _failing(self, method_name: str) -> Any:
        async def failing(*args: Any, **kwargs: Any) -> Any:
            queue = self._faults[method_name]
            error, after = queue.popleft()
            if not queue:  # back to the real method for the calls after this one
                del self._faults[method_name]
                delattr(self, method_name)
            if after:
                await getattr(type(self), method_name)(self, *args, **kwargs)
            raise error

        return failing


__all__ = ["TEXT_SCORE_THRESHOLD", "InMemoryStore"]
