"""search_facts: up to three queries, each a semantic and a keyword search fused by RRF."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from eden_memory.application.calls import embed
from eden_memory.application.hits import visible_facts
from eden_memory.application.reports import Usage
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import FusedHit, Hit, fuse, merge_queries, single
from eden_memory.domain.scopes import ActiveScopes, FactVisibility
from eden_memory.domain.settings import SearchSettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore, RankedFact


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    SEMANTIC = "semantic"
    KEYWORD = "keyword"


@dataclass(frozen=True)
class SearchResult:
    fact: Fact
    score: float  # the RRF score in hybrid mode, the retriever's own score otherwise
    semantic_score: float | None
    keyword_score: float | None


@dataclass(frozen=True)
class QueryDebug:
    query: str
    semantic: list[tuple[str, float]]
    keyword: list[tuple[str, float]]
    fused: list[FusedHit]


@dataclass
class SearchDebug:
    mode: str
    thresholds: dict[str, float]
    queries: list[QueryDebug] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchResponse:
    results: list[SearchResult]
    debug: SearchDebug | None = None


def check_queries(queries: Sequence[str], top_k: int | None, s: SearchSettings) -> int:
    """Validate the arguments; returns the effective ``top_k``."""
    if isinstance(queries, str) or not isinstance(queries, Sequence):
        raise InvalidInputError("queries must be a list of 1 to 3 strings")
    if not 1 <= len(queries) <= s.max_queries:
        raise InvalidInputError(f"give 1 to {s.max_queries} queries, got {len(queries)}")
    for query in queries:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("every query must be a non-empty string")
        if len(query) > s.max_query_chars:
            raise InvalidInputError(f"a query may have at most {s.max_query_chars} characters")
    k = s.default_top_k if top_k is None else top_k
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= s.max_top_k:
        raise InvalidInputError(f"top_k must be an integer from 1 to {s.max_top_k}")
    return k


@dataclass
class FactSearch:
    store: FactStore
    embedder: Embedder
    clock: Clock
    settings: SearchSettings
    # Access counts are bookkeeping: a host may batch them off the caller's path.
    track: Callable[[list[FactId], datetime], None] | None = None

    async def search(
        self,
        scopes: ActiveScopes,
        queries: Sequence[str],
        top_k: int | None = None,
        *,
        debug: bool = False,
        mode: SearchMode = SearchMode.HYBRID,
        thresholds: bool = True,
    ) -> SearchResponse:
        k = check_queries(queries, top_k, self.settings)
        if not scopes.search_offered:
            raise InvalidInputError("search_facts is not offered: user and agent memory are off")
        seconds: dict[str, float] = {}
        vectors = await self._embed(queries, mode, seconds)
        started = time.perf_counter()
        per_query = await asyncio.gather(
            *(
                self._one(q, v, scopes.visibility, k, mode, thresholds)
                for q, v in zip(queries, vectors, strict=True)
            )
        )
        seconds["retrieve_and_fuse"] = time.perf_counter() - started
        merged = merge_queries([fused for _, fused in per_query])
        started = time.perf_counter()
        facts = await visible_facts(self.store, [FactId(h.id) for h in merged], scopes.visibility)
        seconds["read_facts"] = time.perf_counter() - started
        results = [
            SearchResult(facts[FactId(h.id)], h.rrf_score, h.semantic_score, h.keyword_score)
            for h in merged
            if h.id in facts
        ]
        started = time.perf_counter()
        found = [r.fact.id for r in results]
        if self.track is None:
            await self.store.record_access(found, self.clock.now())
            seconds["access_tracking"] = time.perf_counter() - started
        else:
            self.track(found, self.clock.now())
        if not debug:
            return SearchResponse(results)
        info = SearchDebug(mode.value, self._thresholds(thresholds), [d for d, _ in per_query])
        info.seconds = seconds
        return SearchResponse(results, info)

    async def _embed(
        self, queries: Sequence[str], mode: SearchMode, seconds: dict[str, float]
    ) -> list[list[float] | None]:
        if mode is SearchMode.KEYWORD:
            return [None] * len(queries)
        started = time.perf_counter()
        vectors = await embed(self.embedder, queries, Usage())
        seconds["embed_queries"] = time.perf_counter() - started
        return list(vectors)

    async def _one(
        self,
        query: str,
        vector: list[float] | None,
        visibility: FactVisibility,
        k: int,
        mode: SearchMode,
        thresholds: bool,
    ) -> tuple[QueryDebug, list[FusedHit]]:
        depth = k * self.settings.candidates_per_list
        sem, kw = await asyncio.gather(
            self._semantic(vector, visibility, depth, mode),
            self._keyword(query, visibility, depth, mode),
        )
        limits = self._thresholds(thresholds)
        sem_hits = [Hit(r.id, r.score) for r in sem]
        kw_hits = [Hit(r.id, r.score) for r in kw]
        if mode is SearchMode.SEMANTIC:
            fused = single(sem_hits, limits["semantic"], semantic=True)
        elif mode is SearchMode.KEYWORD:
            fused = single(kw_hits, limits["text"], semantic=False)
        else:
            fused = fuse(
                sem_hits,
                kw_hits,
                k=self.settings.rrf_k,
                semantic_threshold=limits["semantic"],
                text_threshold=limits["text"],
                rrf_threshold=limits["rrf"],
            )
        fused = fused[:k]
        info = QueryDebug(
            query, [(h.id, h.score) for h in sem_hits], [(h.id, h.score) for h in kw_hits], fused
        )
        return info, fused

    async def _semantic(
        self, vector: list[float] | None, visibility: FactVisibility, depth: int, mode: SearchMode
    ) -> list[RankedFact]:
        if vector is None or mode is SearchMode.KEYWORD:
            return []
        # The store refuses a query of another space than its own (no round trip of ours).
        return await self.store.semantic_ranking(
            vector, visibility, depth, space=self.embedder.space
        )

    async def _keyword(
        self, query: str, visibility: FactVisibility, depth: int, mode: SearchMode
    ) -> list[RankedFact]:
        if mode is SearchMode.SEMANTIC:
            return []
        return await self.store.keyword_ranking(query, visibility, depth)

    def _thresholds(self, on: bool) -> dict[str, float]:
        if not on:
            return {"semantic": -1.0, "text": float("-inf"), "rrf": 0.0}
        text = self.settings.text_threshold
        return {
            "semantic": self.settings.semantic_threshold,
            "text": self.store.text_score_threshold if text is None else text,
            "rrf": self.settings.rrf_threshold,
        }
