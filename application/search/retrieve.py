"""Retrieval: the queries embedded, then each query's semantic and keyword lists, fused.

Each retriever and each fusion is a span of its own (``eden_memory.search.semantic``,
``.keyword``, ``.fusion``) under the search's; the floors are the search's ``FusionRule``
(``domain/search_rules.py``), the fusion ``domain/ranking.py``'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from eden_memory.application.calls import embed
from eden_memory.application.search.shapes import QueryDebug, SearchMode
from eden_memory.application.search.stages import Asked
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ranking import FusedHit, FusionRule, Hit, fuse, single
from eden_memory.domain.scopes import FactVisibility
from eden_memory.domain.search_rules import retrieval_depth
from eden_memory.domain.settings import SearchSettings
from eden_memory.domain.temporal import without_relative_time
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactRanking
from eden_memory.ports.telemetry import Attribute, Span, Telemetry


@dataclass(frozen=True)
class KeywordLists:
    """The keyword rankings of one search, running; cancelled if the search fails first."""

    lists: list[asyncio.Future[list[Hit]]]

    def __enter__(self) -> KeywordLists:
        return self

    def __exit__(self, *failed: object) -> None:
        for running in self.lists:
            if not running.done():
                running.cancel()
            elif not running.cancelled():
                running.exception()  # a failure the search did not wait for, seen: no warning


@dataclass(frozen=True)
class Retrieval:
    ranking: FactRanking
    embedder: Embedder
    settings: SearchSettings
    telemetry: Telemetry

    async def vectors(self, queries: list[str]) -> list[list[float] | None]:
        return list(await embed(self.embedder, queries, TextRole.QUERY))

    def keyword_started(self, asked: Asked) -> KeywordLists:
        """Each query's keyword ranking, started now: it needs no vector, so it runs while
        the queries are embedded (and the floors read) instead of after."""
        depth = retrieval_depth(asked.k, self.settings)
        visibility, mode = asked.scopes.visibility, asked.mode
        return KeywordLists(
            [
                asyncio.ensure_future(self._keyword(q, visibility, depth, mode))
                for q in asked.queries
            ]
        )

    async def per_query(
        self,
        asked: Asked,
        vectors: list[list[float] | None],
        rule: FusionRule,
        keyword: KeywordLists,
    ) -> list[QueryDebug]:
        """Each query's candidates, fused (``QueryDebug.fused``), with its two lists: the
        semantic ranking runs now, the keyword one started before the embedding."""
        depth = retrieval_depth(asked.k, self.settings)
        visibility, mode = asked.scopes.visibility, asked.mode
        return await asyncio.gather(
            *(
                self._one(q, v, kw, visibility, depth, mode, rule)
                for q, v, kw in zip(asked.queries, vectors, keyword.lists, strict=True)
            )
        )

    async def _one(
        self,
        query: str,
        vector: list[float] | None,
        keyword: Awaitable[list[Hit]],
        visibility: FactVisibility,
        depth: int,
        mode: SearchMode,
        rule: FusionRule,
    ) -> QueryDebug:
        sem_hits, kw_hits = await asyncio.gather(
            self._semantic(vector, visibility, depth, mode), keyword
        )
        fused = self._fused(sem_hits, kw_hits, mode, rule)
        return QueryDebug(
            query, [(h.id, h.score) for h in sem_hits], [(h.id, h.score) for h in kw_hits], fused
        )

    def _fused(
        self, sem_hits: list[Hit], kw_hits: list[Hit], mode: SearchMode, rule: FusionRule
    ) -> list[FusedHit]:
        sizes = {"eden_memory.search.semantic_hits": len(sem_hits)}
        sizes["eden_memory.search.keyword_hits"] = len(kw_hits)
        with self.telemetry.operation("eden_memory.search.fusion", sizes) as span:
            if mode is SearchMode.SEMANTIC:
                fused = single(sem_hits, rule.semantic_threshold, semantic=True)
            elif mode is SearchMode.KEYWORD:
                fused = single(kw_hits, rule.text_threshold, semantic=False)
            else:
                fused = fuse(sem_hits, kw_hits, rule)
            how = rule.fusion.value if mode is SearchMode.HYBRID else "none"
            span.set("eden_memory.search.fusion", how)
            span.set("eden_memory.search.fused_hits", len(fused))
        return fused

    async def _semantic(
        self, vector: list[float] | None, visibility: FactVisibility, depth: int, mode: SearchMode
    ) -> list[Hit]:
        if vector is None or mode is SearchMode.KEYWORD:
            return []
        with self._retriever("semantic", depth) as span:
            # The store refuses a query of another space than its own (no round trip of ours).
            hits = await self.ranking.semantic_ranking(
                vector, visibility, depth, space=self.embedder.space
            )
            span.set("eden_memory.search.hits", len(hits))
            return hits

    async def _keyword(
        self, query: str, visibility: FactVisibility, depth: int, mode: SearchMode
    ) -> list[Hit]:
        if mode is SearchMode.SEMANTIC:
            return []
        with self._retriever("keyword", depth) as span:
            words = without_relative_time(query)
            hits = await self.ranking.keyword_ranking(words, visibility, depth)
            span.set("eden_memory.search.hits", len(hits))
            return hits

    def _retriever(self, name: str, depth: int) -> AbstractContextManager[Span]:
        asked: dict[str, Attribute] = {"eden_memory.search.retriever": name}
        asked["eden_memory.search.depth"] = depth
        return self.telemetry.operation(f"eden_memory.search.{name}", asked)
