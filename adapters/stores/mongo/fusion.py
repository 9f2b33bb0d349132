"""Hybrid search in one call: server-side ``$rankFusion`` where asked for, local RRF elsewhere.

Not part of the store port (the search use case fuses the two rankings itself, with its
thresholds); offered for hosts that query the store directly and want one round trip on
MongoDB 8.0+. ``$rankFusion`` fixes k at 60 and ranks from 1, exactly the domain's
convention (``domain.ranking.rrf_scores``), so both paths rank alike on the same lists.
"""

from __future__ import annotations

import asyncio

from pymongo.errors import OperationFailure, PyMongoError

from eden_memory.adapters.stores.mongo import pipelines
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.errors import dimension_moved, translate
from eden_memory.adapters.stores.mongo.keyword import atlas_query
from eden_memory.adapters.stores.mongo.search import SearchMethods, atlas_ranking
from eden_memory.adapters.stores.mongo.visibility import search_clauses, visible_active
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import rrf_scores
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import RankedFact, Vector

# The server cannot run $rankFusion: an unknown stage (before 8.0), or a preview stage
# this configuration does not allow (QueryFeatureNotAllowed: "$rankFusion is not allowed
# with the current configuration. You may need to enable the corresponding feature flag").
NO_RANK_FUSION = frozenset({40324, 224})


class FusionMethods(SearchMethods):
    ctx: MongoContext

    async def hybrid_search(
        self,
        text: str,
        vector: Vector,
        visibility: FactVisibility,
        limit: int,
        *,
        space: EmbeddingSpace,
    ) -> list[RankedFact]:
        """Visible active facts by Reciprocal Rank Fusion (k = 60) of both rankings.

        Ids only, like the rankings it fuses; each score is the fact's RRF score. ``space`` is
        the query vector's, refused if it is not the store's (as in ``semantic_ranking``). With
        ``use_rank_fusion`` and a server that has Atlas Search and ``$rankFusion``, the
        fusion runs on the server.
        """
        if limit <= 0 or visibility.is_empty:
            return []
        if self.ctx.options.use_rank_fusion and self.ctx.rank_fusion is not False:
            fused = await self._on_server(text, vector, visibility, limit, space)
            if fused is not None:
                return fused
        semantic, keyword = await asyncio.gather(
            self.semantic_ranking(vector, visibility, limit, space=space),
            self.keyword_ranking(text, visibility, limit),
        )
        rankings = [[r.id for r in semantic], [r.id for r in keyword]]
        ranked = rrf_scores(rankings, pipelines.RANK_FUSION_K)[:limit]
        return [RankedFact(FactId(doc), score) for doc, score in ranked]

    async def _on_server(
        self,
        text: str,
        vector: Vector,
        visibility: FactVisibility,
        limit: int,
        space: EmbeddingSpace,
    ) -> list[RankedFact] | None:
        stored = await self.embedding_space()
        if stored is None:
            return None
        if not await self.ctx.atlas.usable(self.ctx.driver, self.ctx.facts.raw, stored.dimension):
            return None
        stored.require_same(space)
        space.check_vector(len(vector))
        opts, ids = self.ctx.options, self.ctx.ids
        semantic = pipelines.vector_stage(
            opts.search_indexes.vector,
            vector,
            visible_active(visibility, ids, space.model),
            opts.vector_limit(limit),
            opts.num_candidates(limit),
        )
        query = atlas_query(text)
        if not query:
            return None  # no word to search for: the local fusion ranks by meaning alone
        keyword = pipelines.search_stage(
            opts.search_indexes.text, query, search_clauses(visibility, ids)
        )
        pipeline = pipelines.rank_fusion([semantic], [keyword, {"$limit": limit}], limit)
        try:
            documents = await self.ctx.facts.retrying(
                lambda: self.ctx.driver.aggregate(self.ctx.facts.raw, pipeline)
            )
        except PyMongoError as error:
            if isinstance(error, OperationFailure) and error.code in NO_RANK_FUSION:
                self.ctx.rank_fusion = False  # not on this cluster: fuse locally from now on
                return None
            if dimension_moved(error):
                self.ctx.atlas.forget()  # the vector index is rebuilding: fuse locally
                return None
            raise translate(error, "$rankFusion") from error
        self.ctx.rank_fusion = True
        return atlas_ranking(documents, cosine=False)
