"""search_facts as a recipe: each line a stage that returns a value, timed under its name.

Up to three queries (the caller's, and those the memory's LLM adds when ``search.expand`` is
on: ``application/search/expansion.py``), each embedded, then searched by meaning and by keyword and
fused (``retrieve.py``); each query's candidates raised by their session-mates and by the
time the query names (``application/search/raises.py``); the live winners chosen and, when
``search.rerank`` is on, reordered (``winners.py``); their relevance judged (``relevance.py``)
and the search abstaining when none is relevant; of two results about the same thing the
newer first (``application/search/freshness.py``). The decisions are ``domain/search_rules.py``'s;
the response and the debug output are read from the stages' values (``outcome.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from eden_memory.application.search.calibration import Calibrations
from eden_memory.application.search.empty import why_empty
from eden_memory.application.search.expansion import Expanded, QueryExpander
from eden_memory.application.search.freshness import settle
from eden_memory.application.search.judging import Judge, Judged, judge_results
from eden_memory.application.search.outcome import Found, response, results
from eden_memory.application.search.raises import Raised, raise_candidates
from eden_memory.application.search.relevance import Relevance
from eden_memory.application.search.retrieve import Retrieval
from eden_memory.application.search.shapes import (
    QueryDebug,
    SearchMode,
    SearchResponse,
    SearchResult,
    check_queries,
    search_mode,
)
from eden_memory.application.search.stages import Asked, Stages
from eden_memory.application.search.winners import Winners
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import FusionRule
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.domain.search_rules import (
    abstained,
    abstention_line,
    floored_rule,
    unfloored_rule,
)
from eden_memory.domain.settings import SearchSettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.stores import FactRanking, FactReads
from eden_memory.ports.telemetry import Attribute, Span, Telemetry


@dataclass
class FactSearch:
    facts: FactReads
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
        with self.telemetry.operation("eden_memory.search", _described(mode, queries, k)) as span:
            expanded = await self._expanded(queries)
            searched = [*queries, *expanded.added]
            asked = Asked(scopes, searched, len(queries), k, mode, thresholds)
            found = await self._found(asked, expanded, span)
            span.set("eden_memory.search.results", len(found.shown))
            return response(found, mode, debug)

    async def _found(self, asked: Asked, expanded: Expanded, span: Span) -> Found:
        """The recipe: one line a stage; the debug output is these values."""
        stage = Stages()
        with self._retrieval.keyword_started(asked) as keyword:
            vectors = await self._vectors(stage, asked)
            rule = await self._rule(asked.thresholds)
            lists = await stage(
                "retrieve_and_fuse", self._retrieval.per_query(asked, vectors, rule, keyword)
            )
        now = self.clock.now()
        raised, read = await stage("read_facts", self._raised(asked, lists, now))
        chosen, read = await stage("read_facts", self._winners.chosen(asked, raised, read, now))
        rel = await stage(
            "read_facts", self._relevance.of(asked, chosen.hits, raised, lists, vectors)
        )
        line = abstention_line(self.settings, asked.thresholds)
        shown, held = abstained(results(chosen, read, rel), rel, line)
        judged = await self._judged(asked, shown)
        shown, count = judged.results, len(held) + len(judged.held)
        span.set("eden_memory.search.abstained", count)
        shown = await self._newer_first(stage, shown, asked.own)
        await self._tracked(stage, shown)
        why = None if shown else await why_empty(self.facts, asked.scopes, count, bool(judged.held))
        span.set("eden_memory.search.why_empty", "" if why is None else why.value)
        return Found(
            expanded,
            rule,
            lists,
            raised,
            chosen,
            rel,
            line,
            shown,
            held,
            why,
            stage.seconds,
            judged,
        )

    def _judged(self, asked: Asked, shown: list[SearchResult]) -> Awaitable[Judged]:
        """The judge's verdict on the best results (without thresholds nothing is held)."""
        judge = self.judge if asked.thresholds else None
        depth = self.settings.judge_depth
        return judge_results(judge, asked.own, shown, depth, self.telemetry)

    async def _expanded(self, queries: Sequence[str]) -> Expanded:
        room = self.settings.max_queries - len(queries)
        if self.expander is None or not self.settings.expand or room < 1:
            return Expanded([])
        return await self.expander.expand(queries, room)

    async def _vectors(self, stage: Stages, asked: Asked) -> list[list[float] | None]:
        if asked.mode is SearchMode.KEYWORD:
            return [None] * len(asked.queries)
        return await stage("embed_queries", self._retrieval.vectors(asked.queries))

    async def _rule(self, thresholds: bool) -> FusionRule:
        """The fusion and floors of this search (every floor off when ``thresholds`` is off)."""
        s = self.settings
        if not thresholds:
            return unfloored_rule(s)
        floor = s.semantic_threshold
        if floor is None:
            floor = (await self.calibrations.current()).search_floor
        return floored_rule(s, floor, self.ranking.text_score_threshold)

    def _raised(
        self, asked: Asked, lists: list[QueryDebug], now: datetime
    ) -> Awaitable[tuple[list[Raised], dict[FactId, Fact]]]:
        fused = [d.fused for d in lists]
        visibility, s = asked.scopes.visibility, self.settings
        return raise_candidates(self.facts, s, now, asked.queries, fused, visibility, asked.k)

    async def _newer_first(
        self, stage: Stages, shown: list[SearchResult], own: Sequence[str]
    ) -> list[SearchResult]:
        """Of two results about the same thing, the newer first and the older marked."""
        if not self.settings.newer_first or len(shown) < 2:
            return shown
        return await stage("newer_first", self._settled(shown, own))

    async def _settled(self, shown: list[SearchResult], own: Sequence[str]) -> list[SearchResult]:
        facts, floor = [r.fact for r in shown], self.settings.same_thing_similarity
        space = self.embedder.space
        now, attributes = self.clock.now(), self.settings.same_attribute
        settled = await settle(self.facts, facts, own, floor, space, now, attributes)
        marks = {i: facts[j].id for i, j in settled.newer.items()}
        return [replace(shown[i], newer=marks.get(i)) for i in settled.order]

    async def _tracked(self, stage: Stages, shown: list[SearchResult]) -> None:
        """Access counts: recorded here, or handed to the host's ``track``."""
        found = [r.fact.id for r in shown]
        if self.track is None:
            await stage("access_tracking", self.facts.record_access(found, self.clock.now()))
        else:
            self.track(found, self.clock.now())

    @property
    def _retrieval(self) -> Retrieval:
        return Retrieval(self.ranking, self.embedder, self.settings, self.telemetry)

    @property
    def _winners(self) -> Winners:
        return Winners(self.facts, self.settings, self.reranker, self.telemetry)

    @property
    def _relevance(self) -> Relevance:
        return Relevance(self.facts, self.ranking, self.calibrations)


def _described(mode: SearchMode, queries: Sequence[str], k: int) -> dict[str, Attribute]:
    return {
        "eden_memory.search.mode": mode.value,
        "eden_memory.search.queries": len(queries),
        "eden_memory.search.top_k": k,
    }
