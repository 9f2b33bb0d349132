"""What a search found, as its stages' values; its response and debug output read from them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from eden_memory.application.search.expansion import Expanded
from eden_memory.application.search.judging import Judged
from eden_memory.application.search.raises import Raised
from eden_memory.application.search.reranking import Reranked
from eden_memory.application.search.shapes import (
    QueryDebug,
    SearchDebug,
    SearchMode,
    SearchResponse,
    SearchResult,
    WhyEmpty,
)
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import Fusion, FusionRule


@dataclass(frozen=True)
class Found:
    """The values of one search's stages, in their order."""

    expanded: Expanded
    rule: FusionRule
    retrieved: list[QueryDebug]  # each query's lists, fused before the raises
    raised: list[Raised]
    chosen: Reranked
    relevances: list[float | None]
    line: float  # the abstention line (0: off)
    shown: list[SearchResult]
    held: list[SearchResult]  # the hits an abstaining search held back
    why: WhyEmpty | None
    seconds: dict[str, float]
    judged: Judged  # the judge's verdict (nothing held when it is off)

    @property
    def best_relevance(self) -> float | None:
        """The best hit's relevance, returned or held back (None: none could tell)."""
        return max((r for r in self.relevances if r is not None), default=None)


def results(
    chosen: Reranked, facts: dict[FactId, Fact], rel: list[float | None]
) -> list[SearchResult]:
    """The chosen hits as results, with their relevance and the reranker's score."""
    return [
        SearchResult(
            facts[FactId(h.id)],
            h.score,
            h.semantic_score,
            h.keyword_score,
            r,
            rerank_score=chosen.scores.get(h.id),
        )
        for h, r in zip(chosen.hits, rel, strict=True)
    ]


def response(found: Found, mode: SearchMode, debug: bool) -> SearchResponse:
    """The caller's answer, with the stages' values as its debug output when asked."""
    best, why = found.best_relevance, found.why
    held = len(found.held) + len(found.judged.held)
    answer = SearchResponse(found.shown, None, held, best, found.line, why)
    return replace(answer, debug=_debug(found, mode)) if debug else answer


def _debug(found: Found, mode: SearchMode) -> SearchDebug:
    rule = found.rule
    limits = {
        "semantic": rule.semantic_threshold,
        "text": rule.text_threshold,
        "fused": rule.fused_threshold,
    }
    explained = [
        replace(d, fused=c.hits, session_bonus=c.bonuses, time_named=c.named, time_factor=c.factor)
        for d, c in zip(found.retrieved, found.raised, strict=True)
    ]
    return SearchDebug(
        mode.value,
        limits,
        _describe(rule),
        explained,
        seconds=found.seconds,
        abstained=len(found.held) + len(found.judged.held),
        best_relevance=found.best_relevance,
        under_line=found.held,
        rerank=found.chosen.note,
        expansion=found.expanded.note,
        judge=found.judged.note,
        not_answering=found.judged.held,
    )


def _describe(rule: FusionRule) -> str:
    weights = f"{rule.weights.semantic:g}/{rule.weights.keyword:g}"
    if rule.fusion is Fusion.RRF:
        return f"rrf k={rule.rrf_k} {weights}"
    return f"score {weights}"
