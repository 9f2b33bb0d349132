"""What a search's scores mean, written once for every surface that shows one.

The CLI's search table, the tools' debug lines (function calling and MCP), the console's
search page and the demo take their labels and sentences from here, so no two of them can say
different things about one number. ``NEWER`` explains the mark a result outdated by a newer
one carries (``SearchResult.newer``). The number shown first is a result's ``relevance``: in
[0, 1] in every mode and fusion, in the results' order; the retrievers' raw scores beside it
are labelled by what they are (cosine, BM25).
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
    "0-1, the result's ranking score as a share of the best result's in this search "
    "(1 = the best hit; the ranking counts both retrievers, the session and a time the query "
    "names); compare within a search, not a confidence",
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


def legend() -> list[str]:
    """What each column of a search table means, as lines ``label: text``."""
    return [m.line() for m in (*MEANINGS, NEWER)]
