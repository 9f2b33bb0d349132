"""search_facts: up to three queries, each a semantic and a keyword search, fused.

The semantic floor is the embedder's calibrated one unless settings fix it
(``application/calibration.py``); fusion is by scaled scores or by RRF (``domain/ranking.py``).
Each query's candidates are then raised by their session-mates and by the time the query names
(``application/raises.py``), before the cut to ``top_k``. By configuration, the memory's LLM
adds queries first (``application/expansion.py``) and a reranker orders the best candidates
last (``application/reranking.py``). The shapes a search takes and gives are in
``application/search_shapes.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import datetime

from eden_memory.application.calibration import Calibrations
from eden_memory.application.calls import embed
from eden_memory.application.empty_search import why_empty
from eden_memory.application.expansion import Expanded, QueryExpander
from eden_memory.application.freshness import settle
from eden_memory.application.hits import visible_facts
from eden_memory.application.judging import Judge, judge_results
from eden_memory.application.raises import raise_candidates
from eden_memory.application.reranking import Reranked, rerank
from eden_memory.application.search_shapes import (
    QueryDebug,
    SearchDebug,
    SearchMode,
    SearchResponse,
    SearchResult,
    check_queries,
    search_mode,
)
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import (
    FusedHit,
    Fusion,
    FusionRule,
    FusionWeights,
    Hit,
    fuse,
    merge_queries,
    single,
)
from eden_memory.domain.relevance import (
    Backdrop,
    answerable,
    hit_relevance,
    names_asked,
    names_held,
)
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.scopes import ActiveScopes, FactVisibility
from eden_memory.domain.settings import SearchSettings
from eden_memory.domain.temporal import without_relative_time
from eden_memory.domain.vectors import cosine
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.stores import FactRanking, FactStore
from eden_memory.ports.telemetry import Attribute, Span, Telemetry

__all__ = [  # the shapes, where hosts have always imported them from
    "FactSearch",
    "QueryDebug",
    "SearchDebug",
    "SearchMode",
    "SearchResponse",
    "SearchResult",
    "check_queries",
    "search_mode",
]


@dataclass
class FactSearch:
    facts: FactStore
    ranking: FactRanking
    embedder: Embedder
    clock: Clock
    settings: SearchSettings
    calibrations: Calibrations
    # Access counts are bookkeeping: a host may batch them off the caller's path.
    track: Callable[[list[FactId], datetime], None] | None = None
    telemetry: Telemetry = NO_TELEMETRY
    # Reorders the best ``settings.rerank_depth`` candidates when ``settings.rerank`` is on.
    reranker: Reranker | None = None
    # Adds queries to a search given fewer than ``max_queries`` when ``settings.expand`` is on.
    expander: QueryExpander | None = None
    # Says whether the best results answer at all when ``settings.judge`` is on; none: all held.
    judge: Judge | None = None

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
        mode = search_mode(mode)
        if not scopes.search_offered:
            raise InvalidInputError(
                "search_facts is not offered: facts are off, or user and agent memory are"
            )
        asked = {
            "eden_memory.search.mode": mode.value,
            "eden_memory.search.queries": len(queries),
            "eden_memory.search.top_k": k,
        }
        with self.telemetry.operation("eden_memory.search", asked) as span:
            expanded = await self._expanded(queries)
            searched = [*queries, *expanded.added]
            response = await self._search(
                scopes, searched, len(queries), k, debug, mode, thresholds, span
            )
            if response.debug is not None:
                response.debug.expansion = expanded.note
            span.set("eden_memory.search.results", len(response.results))
            return response

    async def _expanded(self, queries: Sequence[str]) -> Expanded:
        room = self.settings.max_queries - len(queries)
        if self.expander is None or not self.settings.expand or room < 1:
            return Expanded([])
        return await self.expander.expand(queries, room)

    async def _search(
        self,
        scopes: ActiveScopes,
        queries: Sequence[str],
        given: int,
        k: int,
        debug: bool,
        mode: SearchMode,
        thresholds: bool,
        span: Span,
    ) -> SearchResponse:
        seconds: dict[str, float] = {}
        vectors = await self._embed(queries, mode, seconds)
        rule = await self._rule(thresholds)
        started = time.perf_counter()
        per_query = await asyncio.gather(
            *(
                self._one(q, v, scopes.visibility, k, mode, rule)
                for q, v in zip(queries, vectors, strict=True)
            )
        )
        seconds["retrieve_and_fuse"] = time.perf_counter() - started
        started = time.perf_counter()
        now = self.clock.now()
        context, facts = await raise_candidates(
            self.facts,
            self.settings,
            now,
            queries,
            [f for _, f in per_query],
            scopes.visibility,
            k,
        )
        # Added queries widen the candidates; the caller's own queries say how many results
        # there are, how relevant each is, and what a reranker judges against.
        lists = [c.hits for c in context]
        reranked = await self._reranked(queries[:given], lists, given, facts, k, scopes, now)
        kept = reranked.hits
        seen = [d.semantic for d, _ in per_query[:given]]
        named = await self._names_held(queries[:given], scopes.visibility)
        relevances = await self._relevances(kept, lists[:given], vectors[:given], seen, named)
        seconds["read_facts"] = time.perf_counter() - started
        results = [
            SearchResult(
                facts[FactId(h.id)],
                h.score,
                h.semantic_score,
                h.keyword_score,
                r,
                rerank_score=reranked.scores.get(h.id),
            )
            for h, r in zip(kept, relevances, strict=True)
        ]
        line = self.settings.abstain_below if thresholds else 0.0
        held: list[SearchResult] = []
        if results and line > 0 and not answerable(relevances, line):
            held, results = results, []
        judge = self.judge if thresholds else None  # without thresholds nothing is held back
        judged = await judge_results(
            judge, queries[:given], results, self.settings.judge_depth, self.telemetry
        )
        results = judged.results
        abstained = len(held) + len(judged.held)
        span.set("eden_memory.search.abstained", abstained)
        if self.settings.newer_first and len(results) > 1:
            started = time.perf_counter()
            results = await self._newer_first(results, queries[:given])
            seconds["newer_first"] = time.perf_counter() - started
        started = time.perf_counter()
        found = [r.fact.id for r in results]
        if self.track is None:
            await self.facts.record_access(found, self.clock.now())
            seconds["access_tracking"] = time.perf_counter() - started
        else:
            self.track(found, self.clock.now())
        known = [r for r in relevances if r is not None]
        why = None if results else await why_empty(self.facts, scopes, abstained, bool(judged.held))
        span.set("eden_memory.search.why_empty", "" if why is None else why.value)
        answer = SearchResponse(results, None, abstained, max(known, default=None), line, why)
        if not debug:
            return answer
        limits = {
            "semantic": rule.semantic_threshold,
            "text": rule.text_threshold,
            "fused": rule.fused_threshold,
        }
        explained = [
            replace(
                d,
                fused=c.hits,
                session_bonus=c.bonuses,
                time_named=c.named,
                time_factor=c.factor,
            )
            for (d, _), c in zip(per_query, context, strict=True)
        ]
        info = SearchDebug(mode.value, limits, _describe(rule), explained)
        info.seconds = seconds
        info.abstained = abstained
        info.rerank = reranked.note
        info.best_relevance = answer.best_relevance
        info.under_line = held
        info.judge, info.not_answering = judged.note, judged.held
        return replace(answer, debug=info)

    async def _reranked(
        self,
        asked: Sequence[str],
        lists: list[list[FusedHit]],
        given: int,
        facts: dict[FactId, Fact],
        k: int,
        scopes: ActiveScopes,
        now: datetime,
    ) -> Reranked:
        """The results' hits: each query's best ``k`` live candidates merged, at most ``k``
        for each of the caller's queries (``given``; added queries widen the candidates, not
        the results); when reranking is on, the reranker's order over these and the next
        candidates down to ``rerank_depth`` (a reranker that fails or has no opinion leaves
        them as they were)."""
        s, visibility = self.settings, scopes.visibility
        kept = await self._winners(lists, facts, k, visibility, now)
        if given < len(lists):
            kept = kept[: k * given]
        n = len(kept)
        if self.reranker is None or s.rerank is RerankBy.OFF or n == 0:
            return Reranked(kept)
        depth = max(s.rerank_depth, n)
        deeper = await self._winners(lists, facts, depth, visibility, now)
        shown = {h.id for h in kept}
        judged = kept + [h for h in deeper if h.id not in shown][: depth - n]
        done = await rerank(self.reranker, asked, judged, facts, len(judged), self.telemetry)
        return replace(done, hits=done.hits[:n])

    async def _relevances(
        self,
        kept: Sequence[FusedHit],
        own: Sequence[Sequence[FusedHit]],
        vectors: Sequence[list[float] | None],
        seen: Sequence[Sequence[tuple[str, float]]],
        named: float,
    ) -> list[float | None]:
        """Each hit's relevance to the caller's queries (``own``: their lists; ``vectors``:
        their embeddings; ``seen``: their semantic candidates; ``named``: the share of their
        names the store holds): an added query's closeness is not evidence that a fact is
        relevant to what was asked. A hit no semantic ranking of theirs scored gets its
        cosine with their closest query. Where a hit stands out is read against the
        candidates of the query it is closest to (the first query's, for such a hit)."""
        scale = (await self.calibrations.current()).scale
        semantic: dict[str, float | None] = {}
        coverage: dict[str, float | None] = {}
        wanted = {h.id for h in kept}  # not every candidate: this is on every search's path
        for hits in own:
            for h in hits:
                if h.id not in wanted:
                    continue
                if h.semantic_score is not None:
                    semantic[h.id] = max(h.semantic_score, semantic.get(h.id) or -1.0)
                if h.keyword_coverage is not None:
                    coverage[h.id] = max(h.keyword_coverage, coverage.get(h.id) or 0.0)
        missing = [FactId(h.id) for h in kept if semantic.get(h.id) is None]
        semantic |= await self._cosines(missing, vectors)
        backdrops = _backdrops(seen, wanted)
        first = backdrops[""]
        return [
            hit_relevance(
                scale,
                semantic.get(h.id),
                coverage.get(h.id),
                backdrops.get(h.id, first),
                named,
            )
            for h in kept
        ]

    async def _names_held(self, queries: Sequence[str], visibility: FactVisibility) -> float:
        """The share of the names ``queries`` ask about that some visible fact holds."""
        asked = names_asked(queries)
        if not asked:
            return 1.0
        found = await asyncio.gather(
            *(self.ranking.keyword_ranking(name, visibility, 1) for name in asked)
        )
        return names_held(len(asked), sum(1 for hits in found if hits))

    async def _cosines(
        self, ids: Sequence[FactId], vectors: Sequence[list[float] | None]
    ) -> dict[str, float]:
        """The cosines of hits no semantic ranking scored (keyword-only), with the closest
        query, so that every hit of a search with a query vector has a semantic relevance."""
        queries = [v for v in vectors if v is not None]
        if not ids or not queries:
            return {}
        stored = await self.facts.get_vectors(list(ids))
        return {i: max(cosine(q, v) for q in queries) for i, v in stored.items()}

    async def _winners(
        self,
        lists: list[list[FusedHit]],
        facts: dict[FactId, Fact],
        k: int,
        visibility: FactVisibility,
        now: datetime,
    ) -> list[FusedHit]:
        """Each query's best ``k`` candidates that are live, merged; ``facts`` gains the ones
        read. A candidate left out (expired, or changed since it was ranked) gives its place
        to the next one of its list."""
        gone: set[str] = set()
        while True:
            tops = [[h for h in hits if h.id not in gone][:k] for hits in lists]
            wanted = list(dict.fromkeys(FactId(h.id) for t in tops for h in t if h.id not in facts))
            if not wanted:
                return merge_queries(tops)
            found = await visible_facts(self.facts, wanted, visibility, now)
            facts |= found
            gone |= {i for i in wanted if i not in found}

    async def _embed(
        self, queries: Sequence[str], mode: SearchMode, seconds: dict[str, float]
    ) -> list[list[float] | None]:
        if mode is SearchMode.KEYWORD:
            return [None] * len(queries)
        started = time.perf_counter()
        vectors = await embed(self.embedder, queries, TextRole.QUERY)
        seconds["embed_queries"] = time.perf_counter() - started
        return list(vectors)

    async def _one(
        self,
        query: str,
        vector: list[float] | None,
        visibility: FactVisibility,
        k: int,
        mode: SearchMode,
        rule: FusionRule,
    ) -> tuple[QueryDebug, list[FusedHit]]:
        s = self.settings
        depth = max(k * s.candidates_per_list, s.min_candidates_per_list)
        sem_hits, kw_hits = await asyncio.gather(
            self._semantic(vector, visibility, depth, mode),
            self._keyword(query, visibility, depth, mode),
        )
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
        info = QueryDebug(
            query, [(h.id, h.score) for h in sem_hits], [(h.id, h.score) for h in kw_hits], fused
        )
        return info, fused

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

    def _retriever(self, name: str, depth: int) -> AbstractContextManager[Span]:
        asked: dict[str, Attribute] = {"eden_memory.search.retriever": name}
        asked["eden_memory.search.depth"] = depth
        return self.telemetry.operation(f"eden_memory.search.{name}", asked)

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

    async def _newer_first(
        self, results: list[SearchResult], queries: Sequence[str]
    ) -> list[SearchResult]:
        """Of two results about the same thing, the newer first and the older marked."""
        facts, floor = [r.fact for r in results], self.settings.same_thing_similarity
        space = self.embedder.space
        now, attributes = self.clock.now(), self.settings.same_attribute
        settled = await settle(self.facts, facts, queries, floor, space, now, attributes)
        marks = {i: facts[j].id for i, j in settled.newer.items()}
        return [replace(results[i], newer=marks.get(i)) for i in settled.order]

    async def _rule(self, thresholds: bool) -> FusionRule:
        """The fusion and floors of this search (every floor off when ``thresholds`` is off)."""
        s = self.settings
        weights = FusionWeights(s.semantic_weight, s.keyword_weight)
        if not thresholds:
            return FusionRule(s.fusion, weights, s.rrf_k, -1.0, float("-inf"), 0.0)
        semantic = s.semantic_threshold
        if semantic is None:
            semantic = (await self.calibrations.current()).search_floor
        text = self.ranking.text_score_threshold if s.text_threshold is None else s.text_threshold
        fused = s.rrf_threshold if s.fusion is Fusion.RRF else s.score_threshold
        return FusionRule(s.fusion, weights, s.rrf_k, semantic, text, fused)


def _backdrops(
    seen: Sequence[Sequence[tuple[str, float]]], wanted: set[str]
) -> dict[str, Backdrop | None]:
    """For each of ``wanted`` some query's candidates hold, the backdrop of the query that
    scored it highest; under the key "" the first query's (for hits none of them holds)."""
    drops = [Backdrop.of([score for _, score in hits]) for hits in seen]
    best: dict[str, tuple[float, Backdrop | None]] = {}
    for hits, drop in zip(seen, drops, strict=True):
        for fact, score in hits:
            if fact in wanted and score > best.get(fact, (-2.0, None))[0]:
                best[fact] = (score, drop)
    return {"": drops[0] if drops else None} | {f: d for f, (_, d) in best.items()}


def _describe(rule: FusionRule) -> str:
    weights = f"{rule.weights.semantic:g}/{rule.weights.keyword:g}"
    if rule.fusion is Fusion.RRF:
        return f"rrf k={rule.rrf_k} {weights}"
    return f"score {weights}"
