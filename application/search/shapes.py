"""What a search takes and gives: its modes, arguments, results and debug detail.

Apart from ``application/search/`` (how a search runs) so that hosts, the CLI and the
console can read a search's shapes without its machinery.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.settings import SearchSettings
from eden_memory.domain.temporal import TimeFilter


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    SEMANTIC = "semantic"
    KEYWORD = "keyword"


@dataclass(frozen=True)
class SearchResult:
    """One fact found. ``score`` orders the results: the fused score in hybrid mode (the
    retriever's own alone), raised for the session and the time a query names; ``relevance``
    says how likely the fact is to be about the question, on one scale for every embedder
    (``domain.relevance``). What each number means is ``score_meaning``'s to say."""

    fact: Fact
    score: float
    semantic_score: float | None  # cosine, -1 to 1
    keyword_score: float | None  # BM25 (Atlas's score on Atlas), 0 and up, unbounded
    # In [0, 1]; 0.5 and over: closer to the question than 95% of unrelated text. None: a
    # keyword-only search on a store that cannot tell (Atlas).
    relevance: float | None = None
    # A newer result about the same thing, ranked above this one: this fact may be out of
    # date (``application/search/freshness.py``).
    newer: FactId | None = None
    # The reranker's score (its own scale) when one reordered the search; the results are
    # then in its order, not ``score``'s (``application/search/reranking.py``).
    rerank_score: float | None = None


class WhyEmpty(StrEnum):
    """Why a search returned nothing, from the most to the least found."""

    # hits over the line, and the judge read the best and said none answers (search.judge)
    JUDGED_UNANSWERED = "judged_unanswered"
    UNDER_LINE = "under_line"  # hits found, every one under the relevance line: abstained
    NO_MATCH = "no_match"  # facts visible, none passed a retriever's floor
    NOT_VISIBLE = "not_visible"  # the agent holds facts, none visible to this user and agent
    NO_FACTS = "no_facts"  # the agent holds no facts at all


@dataclass(frozen=True)
class QueryDebug:
    query: str
    semantic: list[tuple[str, float]]
    keyword: list[tuple[str, float]]
    fused: list[FusedHit]  # after the session and time raises, best first
    session_bonus: dict[str, float] = field(default_factory=dict)  # fact id: score gained
    time_named: TimeFilter | None = None
    time_factor: float = 0.0  # facts said in ``time_named`` scored 1 + this times more


@dataclass
class SearchDebug:
    mode: str
    thresholds: dict[str, float]
    fusion: str = ""  # e.g. "score 0.5/0.5" or "rrf k=60 1.0/1.0"
    queries: list[QueryDebug] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    # Hits found but none relevant: how many, and the best one's relevance (else None).
    abstained: int = 0
    best_relevance: float | None = None
    # The hits an abstaining search held back, best first, with their relevance.
    under_line: list[SearchResult] = field(default_factory=list)
    rerank: str = ""  # who reranked and how many candidates, or why the fused order stayed
    expansion: str = ""  # who added queries and how many, or why none were (``queries``)
    judge: str = ""  # who judged and what it said, or why the results stayed (search.judge)
    # The hits a judge said do not answer, held back, best first (``application/judging.py``).
    not_answering: list[SearchResult] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResponse:
    """The results, and when there are none, why: a caller can tell "nothing stored about
    this" (``abstained``: hits found, the best under ``line``) from "nothing to search"."""

    results: list[SearchResult]
    debug: SearchDebug | None = None
    # How many hits were held back because none reached ``line``, or because the judge said
    # none answers (``why_empty`` tells which; 0: none were).
    abstained: int = 0
    # The best hit's relevance, returned or held back (None: no hit, or none could tell).
    best_relevance: float | None = None
    # The relevance the best hit must reach for any to be returned (0: abstention off).
    line: float = 0.0
    why_empty: WhyEmpty | None = None  # None when there are results


def search_mode(mode: object) -> SearchMode:
    """The mode a caller named; a plain string is taken too (a misspelt one is refused: an
    unknown mode must not run as hybrid unnoticed)."""
    if isinstance(mode, str) and mode in {m.value for m in SearchMode}:
        return SearchMode(mode)
    names = ", ".join(m.value for m in SearchMode)
    raise InvalidInputError(f"mode must be one of {names}, got {mode!r:.60}")


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
