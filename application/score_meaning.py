"""What a search's scores mean, written once for every surface that shows one.

The CLI's search table, the tools' debug lines (function calling and MCP), the console's search
page and the demo take their labels and sentences from here, so no two of them can say
different things about one number. A result's ``score`` is the fused score in hybrid search
(by ``Fusion``) and the retriever's own alone; the raw scores beside it are labelled by what
they are (cosine, BM25); what the session and time raises added is shown apart, so a score
meant as 0-1 is shown as 0-1.
"""

from __future__ import annotations

from dataclasses import dataclass

from eden_memory.application.search import SearchDebug, SearchMode, SearchResult
from eden_memory.domain.ranking import Fusion


@dataclass(frozen=True)
class Meaning:
    """A column's label and one sentence saying what its numbers are."""

    label: str
    text: str

    def line(self) -> str:
        return f"{self.label}: {self.text}"


HYBRID = Meaning(
    "score",
    "0-1, relative within this search: min-max scaled per retriever then weighted; "
    "1 = best in both lists; 0 = weakest hit of the one list it appears in; "
    "compare within a search, not a confidence",
)
RRF = Meaning(
    "score",
    "reciprocal rank fusion, from ranks alone: the weighted sum of 1 / (k + rank) over the "
    "semantic and keyword lists; higher is better; compare within a search, not a confidence",
)
SEMANTIC_ALONE = Meaning(
    "score", "cosine similarity of the query and the fact, -1 to 1 (semantic search alone)"
)
KEYWORD_ALONE = Meaning(
    "score",
    "BM25 keyword score, 0 and up, unbounded (keyword search alone); compare within a search",
)
COSINE = Meaning("cosine", "the semantic retriever's raw score: cosine similarity, -1 to 1")
BM25 = Meaning("bm25", "the keyword retriever's raw score: BM25, 0 and up, unbounded")
RAISE = Meaning(
    "raise",
    "what the fact's session-mates and the time the query names added; "
    "results are ordered by score + raise",
)


def result_meaning(mode: SearchMode, fusion: Fusion) -> Meaning:
    """What a result's ``score`` is, in this mode with this fusion."""
    if mode is SearchMode.SEMANTIC:
        return SEMANTIC_ALONE
    if mode is SearchMode.KEYWORD:
        return KEYWORD_ALONE
    return RRF if fusion is Fusion.RRF else HYBRID


def meanings(mode: SearchMode, fusion: Fusion) -> list[Meaning]:
    """What each column of a search table means: score, raise, cosine, bm25."""
    return [result_meaning(mode, fusion), RAISE, COSINE, BM25]


def legend(mode: SearchMode, fusion: Fusion) -> list[str]:
    """``meanings`` as lines, ``label: text``."""
    return [m.line() for m in meanings(mode, fusion)]


def debug_meanings(debug: SearchDebug) -> list[Meaning]:
    """``meanings`` of the search ``debug`` describes."""
    return meanings(SearchMode(debug.mode), debug.fused_by or Fusion.SCORE)


def shown_score(result: SearchResult) -> float:
    """The score before the raises: in hybrid score fusion, the 0-1 score."""
    return result.score if result.base_score is None else result.base_score
