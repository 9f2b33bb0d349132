"""Reading facts the way a request may see them: recent, by meaning, by keywords."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from eden_memory.adapters.stores.memory.ranking import bm25
from eden_memory.adapters.stores.memory.state import StateHolder, StoredFact
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.fifo import newest_first
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.domain.vectors import cosine
from eden_memory.ports.stores import Vector

# BM25 scores grow with the logarithm of the corpus size: a match on a word found in every
# fact of a three-fact store scores about 0.1, a rare word in a large store 5 and more. No
# absolute floor fits both, so any matching term counts and the RRF floor (single-list hits
# up to rank 6) limits what weak keyword matches can add.
TEXT_SCORE_THRESHOLD = 0.0


class FactSearch(StateHolder):
    @property
    def text_score_threshold(self) -> float:
        return TEXT_SCORE_THRESHOLD

    def _visible(self, visibility: FactVisibility) -> Iterator[StoredFact]:
        """The pre-filter: active facts the visibility admits, before any ranking."""
        for stored in self._state.facts.values():
            fact = stored.fact
            if fact.is_active and visibility.admits(fact.agent_id, fact.scope, fact.user_id):
                yield stored

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        await self._turn()
        chosen = [s.fact for s in self._visible(visibility) if s.fact.formed_at >= since]
        chosen.sort(key=newest_first)
        return chosen[: max(limit, 0)]

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        await self._turn()
        stored = self._state.current_space()
        if stored is None:
            return []
        stored.require_same(space)
        space.check_vector(len(vector))
        if limit <= 0:
            return []
        ranked = [
            Hit(s.fact.id, cosine(vector, s.vector))
            for s in self._visible(visibility)
            if s.space == space
        ]
        ranked.sort(key=lambda r: (-r.score, r.id))
        return ranked[:limit]

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        await self._turn()
        if limit <= 0:
            return []
        contents: dict[str, str] = {s.fact.id: s.fact.content for s in self._visible(visibility)}
        ranked = [Hit(FactId(i), score) for i, score in bm25(text, contents).items()]
        ranked.sort(key=lambda r: (-r.score, r.id))
        return ranked[:limit]
