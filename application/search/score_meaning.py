"""What a search's scores mean, written once for every surface that shows one.

The CLI's search table, the tools' debug lines (function calling and MCP), the console's
search page and the demo take their labels and sentences from here, so no two of them can say
different things about one number. ``NEWER`` explains the mark a result outdated by a newer
one carries (``SearchResult.newer``). The number shown first is a result's ``relevance``: in
[0, 1] in every mode and fusion, on one scale for every embedder (``domain.relevance``); the
retrievers' raw scores beside it are labelled by what they are (cosine, BM25).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Meaning:
    """A column's label and one sentence saying what its numbers are."""

    label: str
    text: str

    def line(self) -> str:
        return f"{self.label}: {self.text}"


RELEVANCE = Meaning(
    "relevance",
    "0-1, how likely the fact is about the query, the same scale for every embedder: 0.5 and "
    "over = standing out from the other facts searched and closer than most unrelated text, "
    "or holding half the query's keyword weight; a search whose best hit is under 0.5 "
    "returns nothing; - = not known",
)
COSINE = Meaning("cosine", "the semantic retriever's raw score: cosine similarity, -1 to 1")
BM25 = Meaning("bm25", "the keyword retriever's raw score: BM25, 0 and up, unbounded")
MEANINGS = (RELEVANCE, COSINE, BM25)
# Not a score: a mark on a result that a newer one about the same thing outranks.
NEWER = Meaning(
    "newer",
    "a newer result about the same thing (the same key, or a near-duplicate), ranked above "
    "this one, which may be out of date; it keeps its own scores",
)


def shown(relevance: float | None) -> str:
    """A relevance as every surface prints it: four decimals, ``-`` when not known."""
    return "-" if relevance is None else f"{relevance:.4f}"


def legend() -> list[str]:
    """What each column of a search table means, as lines ``label: text``."""
    return [m.line() for m in (*MEANINGS, NEWER)]
