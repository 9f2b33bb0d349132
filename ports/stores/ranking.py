"""Ranking facts for a query: where engines really differ, so a port of its own."""

from __future__ import annotations

from typing import Protocol

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores.vectors import Vector


class FactRanking(Protocol):
    """Rankings of the facts a ``FactStore`` holds. An adapter must rank only visible, active
    facts of the store's current space, apply visibility *before* the limit, and return ids
    and scores (``Hit``), never facts; it sees every write of the facts it ranks (an index kept
    beside them is updated with them). Checked by ``tests/contract/store``'s ``search``,
    ``keyword_changes`` and ``visibility``."""

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        """Active visible facts by cosine similarity to ``vector``, best first: ``Hit(id, cosine)``.

        Scores are the cosine in [-1, 1] (an engine that reports another scale converts back).
        Rankings carry ids only: a search fuses several and reads just the facts it keeps.

        Visibility is applied *before* ranking: ``limit`` visible results come back whenever
        that many exist. Only facts embedded in the store's current space take part.

        ``space`` is the query vector's: another space than the store's raises
        ``EmbeddingSpaceError`` (checked with the ranking's own read of the store's space, so a
        search costs no extra round trip); a store without a space (``embedding_space()`` is
        None) ranks nothing, whatever the query's.
        """
        ...

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        """Active visible facts ranked by keyword relevance (BM25 or the engine's own), best first.

        Scores are positive and larger is better; ``text_score_threshold`` is this engine's
        calibrated floor for a meaningful match. Each hit's ``coverage`` is the share of the
        query's keyword weight it holds (its score over that of a fact of average length
        holding every query term once, at most 1), or None where the engine cannot tell
        (Atlas): relevance and abstention read it (``domain.relevance``).
        """
        ...

    @property
    def text_score_threshold(self) -> float: ...
