"""Semantic and keyword search: Atlas Search where the server has it, exact scans elsewhere.

On Atlas the visibility filter is inside ``$vectorSearch`` / ``$search`` (pre-filtering:
``limit`` visible results whenever that many exist). Without Atlas Search the store
notices once (the server's CommandNotSupported, mongomock's NotImplementedError), warns
once about scale, and ranks the visible candidates itself: exact cosine over their
vectors, BM25 over their content (narrowed by a ``$text`` index where the server has one).
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.adapters.stores.mongo import pipelines
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import fact_from_document
from eden_memory.adapters.stores.mongo.keyword import bm25
from eden_memory.adapters.stores.mongo.spaces import SpaceMethods
from eden_memory.adapters.stores.mongo.text_index import TextIndexMethods
from eden_memory.adapters.stores.mongo.vectors import top_k
from eden_memory.adapters.stores.mongo.visibility import search_clauses, visible_active
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import FactHit, Vector


class SearchMethods(SpaceMethods, TextIndexMethods):
    ctx: MongoContext

    @property
    def text_score_threshold(self) -> float:
        """Atlas's searchScore floor, or the fallback BM25's; both calibrated to 1.5."""
        opts = self.ctx.options
        if self.ctx.atlas.ready:
            return opts.atlas_text_threshold
        return opts.fallback_text_threshold

    async def semantic_search(
        self, vector: Vector, visibility: FactVisibility, limit: int
    ) -> list[FactHit]:
        space = await self.embedding_space()
        if space is None or limit <= 0 or visibility.is_empty:
            return []
        space.check_vector(len(vector))
        found = visible_active(visibility, self.ctx.ids, space.model)
        if self.ctx.atlas.available is not False:
            opts = self.ctx.options
            pipeline = pipelines.vector_search(
                opts.search_indexes.vector, vector, found, limit, opts.num_candidates(limit)
            )
            documents = await self.ctx.search(pipeline, "$vectorSearch")
            if documents is not None:
                return self._hits(documents, cosine=True)
        return await self._exact_cosine(vector, found, space, limit)

    async def keyword_search(
        self, text: str, visibility: FactVisibility, limit: int
    ) -> list[FactHit]:
        if not isinstance(text, str):
            raise InvalidInputError(f"search text must be a string, got {type(text).__name__}")
        if not text.strip() or limit <= 0 or visibility.is_empty:
            return []
        if self.ctx.atlas.available is not False:
            clauses = search_clauses(visibility, self.ctx.ids)
            index = self.ctx.options.search_indexes.text
            pipeline = pipelines.text_search(index, text, clauses, limit)
            documents = await self.ctx.search(pipeline, "$search")
            if documents is not None:
                return self._hits(documents, cosine=False)
        found = visible_active(visibility, self.ctx.ids)
        candidates, total = await self.keyword_candidates(text, found)
        ranked = bm25(text, candidates, total)[:limit]
        return await self._load(ranked)

    async def _exact_cosine(
        self, vector: Vector, found: Document, space: EmbeddingSpace, limit: int
    ) -> list[FactHit]:
        query = {"$and": [found, {"embedding_dim": space.dimension}]}
        documents = await self.ctx.facts.find(query, {"embedding": 1})
        candidates = [(str(d["_id"]), d["embedding"]) for d in documents if d.get("embedding")]
        candidates = [c for c in candidates if len(c[1]) == space.dimension]
        return await self._load(top_k(vector, candidates, limit))

    async def _load(self, ranked: Sequence[tuple[str, float]]) -> list[FactHit]:
        """The facts behind (id, score) pairs, in the same order."""
        if not ranked:
            return []
        ids = [FactId(doc_id) for doc_id, _ in ranked]
        documents = await self.ctx.facts.find({"_id": {"$in": ids}}, {"embedding": 0})
        facts = {d["_id"]: fact_from_document(d, self.ctx.ids) for d in documents}
        return [FactHit(facts[i], score) for i, score in ranked if i in facts]

    def _hits(self, documents: Sequence[Document], cosine: bool) -> list[FactHit]:
        hits = []
        for document in documents:
            score = float(document.pop(pipelines.SCORE))
            if cosine:
                score = pipelines.cosine_from_atlas(score)
            hits.append(FactHit(fact_from_document(document, self.ctx.ids), score))
        return hits
