"""Relevance: how likely a hit is to be about the question, on one scale for every embedder.

A cosine means nothing alone (0.8 is noise for e5, a near-paraphrase for MiniLM) and BM25
grows with the store, so neither can say "nothing relevant is stored". Relevance reads each
against what it is known to mean:

* **semantic**: against the embedder's own similarities of *unrelated* text, measured on the
  calibration pairs (``calibration``): 0 at the typical unrelated pair (the median), 0.5 at
  the line that 95% of unrelated pairs stay under, 1 at the most similar unrelated pair
  seen; linear between. Above 0.5 a hit is closer to the question than nearly all
  unrelated text is.
* **keyword**: by the share of the question's keyword weight a fact holds (``coverage``: its
  BM25 score over the score of a fact holding every informative word of the question once,
  from the store's own statistics; a word the store does not hold weighs as
  ``text_terms.ideal_weight`` says): relevance is that share, 0.5 for half the question.

A hit's relevance is the stronger of the two it has. A search whose best hit is under
``ABSTAIN_BELOW`` found nothing relevant: it returns no hit (abstention), so a host does not
put unrelated facts in a prompt as if they answered.
"""

from __future__ import annotations

from dataclasses import dataclass

ABSTAIN_BELOW = 0.5


@dataclass(frozen=True)
class SemanticScale:
    """An embedder's cosines of unrelated text: where relevance is 0, 0.5 and 1."""

    typical: float  # the median unrelated pair: relevance 0
    line: float  # 95% of unrelated pairs score under it: relevance 0.5
    most: float  # the most similar unrelated pair: relevance 1

    def __post_init__(self) -> None:
        if not -1.0 <= self.typical < self.line < self.most <= 1.0:
            raise ValueError(
                "a semantic scale needs -1 <= typical < line < most <= 1, "
                f"got {self.typical}, {self.line}, {self.most}"
            )

    def relevance(self, cosine: float) -> float:
        if not cosine > self.typical:  # NaN too: no evidence is not full relevance
            return 0.0
        if cosine < self.line:
            return 0.5 * (cosine - self.typical) / (self.line - self.typical)
        if cosine < self.most:
            return 0.5 + 0.5 * (cosine - self.line) / (self.most - self.line)
        return 1.0


def keyword_relevance(coverage: float) -> float:
    """Relevance from the share of the question's keyword weight a fact holds: that share."""
    return min(1.0, max(0.0, coverage))


def hit_relevance(
    scale: SemanticScale, cosine: float | None, coverage: float | None
) -> float | None:
    """The stronger of a hit's semantic and keyword relevance; None when it has neither (a
    store that cannot tell a keyword hit's coverage, and no cosine)."""
    found = [
        *([] if cosine is None else [scale.relevance(cosine)]),
        *([] if coverage is None else [keyword_relevance(coverage)]),
    ]
    return max(found) if found else None


def answerable(relevances: list[float | None], line: float = ABSTAIN_BELOW) -> bool:
    """Whether a search found something relevant: a hit at or over the line, or a hit whose
    relevance no one can tell (kept rather than dropped on no evidence)."""
    return any(r is None or r >= line for r in relevances)
