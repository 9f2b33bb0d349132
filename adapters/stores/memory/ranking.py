"""``InMemoryRanking``: the facts a request may see, ranked by meaning (exact cosine) and by
keywords (BM25)."""

from __future__ import annotations

from eden_memory.adapters.stores.memory.bm25 import bm25_with_ideal
from eden_memory.adapters.stores.memory.state import StateHolder
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.domain.vectors import cosine
from eden_memory.ports.stores import Vector

# BM25 scores grow with the logarithm of the corpus size: a match on a word found in every
# fact of a three-fact store scores about 0.1, a rare word in a large store 5 and more. No
# absolute floor fits both, so any matching term counts and the RRF floor (single-list hits
# up to rank 6) limits what weak keyword matches can add.
TEXT_SCORE_THRESHOLD = 0.0


class InMemoryRanking(StateHolder):
    """The ``FactRanking`` of the in-memory store: it reads the facts' state directly, so it
    needs no index of its own to keep in step."""

    @property
    def text_score_threshold(self) -> float:
        return TEXT_SCORE_THRESHOLD

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
            for s in self._state.visible(visibility)
            if s.space == space
        ]
        ranked.sort(key=lambda r: (-r.score, r.id))
        return ranked[:limit]

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        await self._turn()
        if limit <= 0:
            return []
        scores, ideal = bm25_with_ideal(text, self._state.visible_words(visibility))
        ranked = [
            Hit(FactId(i), score, None if ideal <= 0 else min(1.0, score / ideal))
            for i, score in scores.items()
        ]
        ranked.sort(key=lambda r: (-r.score, r.id))
        return ranked[:limit]
