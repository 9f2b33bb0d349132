"""Semantic and keyword search: Atlas Search where the server has it, exact scans elsewhere.

On Atlas the visibility filter is inside ``$vectorSearch`` / ``$search`` (pre-filtering:
``limit`` visible results whenever that many exist). Without Atlas Search the store
notices once (the server's CommandNotSupported, mongomock's NotImplementedError), warns
once about scale, and ranks the visible candidates itself: exact cosine over their
vectors, BM25 over their content (narrowed by a ``$text`` index where the server has one).

Atlas's index follows writes with a lag, so its semantic ranking is merged with an exact
one over the facts the server wrote within ``index_lag_seconds`` (dedup meets a fact
written moments before). Both paths rank ids only: the Atlas pipelines project ``_id`` and
the score, the fallback reads just the vectors or the content it scores. The caller reads
the facts it keeps.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from pymongo.errors import PyMongoError

from eden_memory.adapters.stores.mongo import pipelines
from eden_memory.adapters.stores.mongo.capabilities import AtlasSearch
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import WRITTEN_AT
from eden_memory.adapters.stores.mongo.errors import dimension_moved, translate
from eden_memory.adapters.stores.mongo.keyword import (
    atlas_query,
    bm25_with_ideal,
    small_collection_lift,
)
from eden_memory.adapters.stores.mongo.reading import Readers
from eden_memory.adapters.stores.mongo.spaces import Space
from eden_memory.adapters.stores.mongo.text_index import TextIndex
from eden_memory.adapters.stores.mongo.vectors import merged, top_k
from eden_memory.adapters.stores.mongo.visibility import search_clauses, visible_active
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import Vector

SIZE_SECONDS = 60.0


class MongoRanking:
    """The ``FactRanking`` on MongoDB; it holds what it learns of the deployment's Atlas
    Search (``atlas``) and ``$text`` index (``text``), and forgets the first when the facts
    move to another embedding space."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx
        self.atlas = AtlasSearch(ctx.options)
        self.text = TextIndex(ctx)
        self._space = Space(ctx)
        ctx.on_space_moved(self.atlas.forget)
        self._size: tuple[float, int] | None = None  # (when read, documents), for the lift

    @property
    def text_score_threshold(self) -> float:
        """Atlas's searchScore floor, or the fallback BM25's; both calibrated to 1.5."""
        opts = self.ctx.options
        if self.atlas.ready:
            return opts.atlas_text_threshold
        return opts.fallback_text_threshold

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        stored = await self._space.current()
        if stored is None or limit <= 0 or visibility.is_empty:
            return []
        stored.require_same(space)
        space.check_vector(len(vector))
        found = visible_active(visibility, self.ctx.ids, space.model)
        if self.atlas.available is not False:
            opts = self.ctx.options
            pipeline = pipelines.vector_search(
                opts.search_indexes.vector,
                vector,
                found,
                opts.vector_limit(limit),
                opts.num_candidates(limit),
            )
            documents = await self._atlas_search(pipeline, "$vectorSearch", space.dimension)
            if documents is not None:
                ranked = [(str(r.id), r.score) for r in atlas_ranking(documents, cosine=True)]
                recent = await self._recently_written(vector, found, space, limit)
                return _ranked(merged(ranked, recent, opts.vector_limit(limit)))
        return await self._exact_cosine(vector, found, space, limit)

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        if not isinstance(text, str):
            raise InvalidInputError(f"search text must be a string, got {type(text).__name__}")
        query = atlas_query(text)
        if not query or limit <= 0 or visibility.is_empty:
            return []
        if self.atlas.available is not False:
            clauses = search_clauses(visibility, self.ctx.ids)
            index = self.ctx.options.search_indexes.text
            pipeline = pipelines.text_search(index, query, clauses, limit)
            documents = await self._atlas_search(pipeline, "$search")
            if documents is not None:
                lift = small_collection_lift(
                    await self._collection_size(), self.ctx.options.atlas_text_threshold
                )
                return [Hit(h.id, h.score * lift) for h in atlas_ranking(documents, cosine=False)]
        found = visible_active(visibility, self.ctx.ids)
        candidates, total = await self.text.candidates(text, found)
        ranked, ideal = bm25_with_ideal(text, candidates, total)
        return [
            Hit(FactId(i), score, min(1.0, score / ideal) if ideal > 0 else None)
            for i, score in ranked[:limit]
        ]

    async def _collection_size(self) -> int:
        """The facts collection's size, read again after ``SIZE_SECONDS``: only a small,
        young collection's scores are lifted, so a stale size costs nothing in a large one."""
        now = time.monotonic()
        if self._size is None or now - self._size[0] > SIZE_SECONDS:
            self._size = (now, await self.ctx.facts.estimated_count())
        return self._size[1]

    async def _atlas_search(
        self, pipeline: list[Document], what: str, dimension: int | None = None
    ) -> list[Document] | None:
        """Run an Atlas Search pipeline on facts; None when Atlas Search cannot answer.

        Whether it can is settled by listing the search indexes (``AtlasSearch.usable``,
        for vectors of ``dimension``), never by an error of the search itself: once listed,
        a refusal is an error to report (code 8000 "... is not allowed or the syntax is
        incorrect"), not a reason to stop searching for good. Overload and a lost search
        process are retried first. One refusal is the exception: an index found rebuilding
        for another dimension after all serves this search exactly and is asked again.
        """
        facts, driver = self.ctx.facts, self.ctx.driver
        if not await self.atlas.usable(driver, facts.raw, dimension):
            return None
        try:
            return await facts.retrying(lambda: driver.aggregate(facts.raw, pipeline))
        except PyMongoError as error:
            if dimension_moved(error):
                self.atlas.forget()
                return None
            raise translate(error, f"{what} on {facts.name}") from error

    async def _exact_cosine(
        self, vector: Vector, found: Document, space: EmbeddingSpace, limit: int
    ) -> list[Hit]:
        query = {"$and": [found, {"embedding_dim": space.dimension}]}
        documents = await self.ctx.facts.find(query, {"embedding": 1})
        return _ranked(top_k(vector, _vectors(documents, space, self.ctx.read), limit))

    async def _recently_written(
        self, vector: Vector, found: Document, space: EmbeddingSpace, limit: int
    ) -> list[tuple[str, float]]:
        """Exact cosine over the visible facts the server wrote within the index's lag.

        The facts' side is the server's clock (``WRITTEN_AT``, by ``$currentDate``), never
        the conversation's time; the cut-off is the host's clock, so host and server
        should agree to within a few seconds of the window (60 s by default).
        """
        lag = self.ctx.options.index_lag_seconds
        if lag <= 0:
            return []
        since = {WRITTEN_AT: {"$gte": datetime.now(UTC) - timedelta(seconds=lag)}}
        query = {"$and": [found, {"embedding_dim": space.dimension}, since]}
        documents = await self.ctx.facts.find(
            query,
            {"embedding": 1},
            sort=[(WRITTEN_AT, -1)],
            limit=self.ctx.options.recent_scan_limit,
        )
        return top_k(vector, _vectors(documents, space, self.ctx.read), limit)


def _vectors(
    documents: Sequence[Document], space: EmbeddingSpace, read: Readers
) -> list[tuple[str, Vector]]:
    """(id, vector) of the documents holding a vector of ``space``'s dimension."""
    pairs = [(str(d["_id"]), read.vector(d)) for d in documents if d.get("embedding")]
    return [(doc_id, v) for doc_id, v in pairs if len(v) == space.dimension]


def _ranked(pairs: Sequence[tuple[str, float]]) -> list[Hit]:
    """(id, score) pairs as the port's rankings, in the same order."""
    return [Hit(FactId(doc_id), score) for doc_id, score in pairs]


def atlas_ranking(documents: Sequence[Document], cosine: bool) -> list[Hit]:
    """An Atlas answer (``_id`` and score per document) as a ranking, cosine made plain."""
    ranking = []
    for document in documents:
        score = float(document[pipelines.SCORE])
        if cosine:
            score = pipelines.cosine_from_atlas(score)
        ranking.append(Hit(FactId(str(document["_id"])), score))
    return ranking
