"""Relevance: whether a hit addresses the question, on one scale for every embedder.

A cosine means nothing alone (0.8 is noise for e5, a near-paraphrase for MiniLM) and BM25
grows with the store. Within one user's memory every fact also shares the user's name, topic
and style, so "closer than unrelated text" says little about *this* fact answering *this*
question. Relevance reads a hit against three things:

* **closeness** (``SemanticScale``): the embedder's own cosines of *unrelated* text,
  measured on the calibration pairs (``calibration``): 0 at the typical unrelated pair (the
  median), 0.5 at the line 95% of unrelated pairs stay under, 1 at the most similar
  unrelated pair seen; linear between.
* **standing out** (``Backdrop``): the same cosine against the other facts this search sees
  for this question (its semantic candidates: on a store of up to 100 facts, every visible
  fact). An answer stands out from the user's other facts; an unanswerable question scores
  them all alike. 0 at their median, 0.5 one standard deviation above it, 1 at two.
* **keyword** (``keyword_relevance``): the share of the question's keyword weight a fact
  holds (``coverage``, from the store's own statistics).

A hit's semantic relevance is, with a backdrop of at least ``MIN_BACKDROP`` facts, the lesser
of its standing out and twice its closeness: it must stand out by a standard deviation *and*
be a quarter of the way from typical unrelated text to the line (so a store of unrelated
facts, alike in being far, does not make one stand out); with fewer facts, its closeness
alone. A hit's relevance is the stronger of its semantic and keyword relevance, times the
share of the names the question asks about (``names_asked``) that some visible fact holds:
a question about someone the store never mentions has nothing relevant in it. A search whose
best hit is under ``ABSTAIN_BELOW`` found nothing relevant: it returns no hit (abstention).

What the line does not reach: a plausible question about the user that nothing answers
("does she have a dog?") often has a fact that stands out as much as a real answer does
(docs/benchmarks.md, "Personal stores"); telling them apart takes a model
that reads both (the optional judge, ``domain/judging.py``).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ABSTAIN_BELOW = 0.5
# Under this many candidates, their median and spread are noise: closeness alone judges.
MIN_BACKDROP = 8
# How many standard deviations above the candidates' median a hit reads as relevance 0.5.
STAND_OUT_SPREADS = 1.0


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


@dataclass(frozen=True)
class Backdrop:
    """The cosines of the facts one query's search saw: where its answers stand out from."""

    median: float
    spread: float  # the population standard deviation, > 0

    @classmethod
    def of(cls, cosines: Sequence[float]) -> Backdrop | None:
        """The backdrop of ``cosines``; None under ``MIN_BACKDROP`` of them or no spread."""
        if len(cosines) < MIN_BACKDROP:
            return None
        spread = statistics.pstdev(cosines)
        return cls(statistics.median(cosines), spread) if spread > 0 else None

    def standing(self, cosine: float) -> float:
        """0 at the median, 0.5 at ``STAND_OUT_SPREADS`` deviations above it, 1 at twice."""
        spreads = (cosine - self.median) / self.spread
        return min(1.0, max(0.0, 0.5 * spreads / STAND_OUT_SPREADS))


def semantic_relevance(scale: SemanticScale, cosine: float, backdrop: Backdrop | None) -> float:
    """A cosine's relevance: the lesser of its standing out from ``backdrop`` and twice its
    closeness on ``scale``; its closeness alone without a backdrop."""
    closeness = scale.relevance(cosine)
    if backdrop is None:
        return closeness
    return min(backdrop.standing(cosine), min(1.0, 2 * closeness))


def keyword_relevance(coverage: float) -> float:
    """Relevance from the share of the question's keyword weight a fact holds: that share."""
    return min(1.0, max(0.0, coverage))


def hit_relevance(
    scale: SemanticScale,
    cosine: float | None,
    coverage: float | None,
    backdrop: Backdrop | None = None,
    names_held: float = 1.0,
) -> float | None:
    """The stronger of a hit's semantic and keyword relevance, times ``names_held`` (the share
    of the question's names some visible fact holds); None when it has neither (a store that
    cannot tell a keyword hit's coverage, and no cosine)."""
    found = [
        *([] if cosine is None else [semantic_relevance(scale, cosine, backdrop)]),
        *([] if coverage is None else [keyword_relevance(coverage)]),
    ]
    return max(found) * names_held if found else None


_WORD = re.compile(r"\w+")


def names_asked(texts: Iterable[str]) -> list[str]:
    """The words of ``texts`` that name someone or something: a word written as a name
    (a capital, then lower case) after a sentence's first word, other than "I"; each once.

    Case is the only sign of a name a pure function has; a name first in its sentence is
    missed (no harm: the question is then judged as if it named nothing).
    """
    found: dict[str, str] = {}
    for text in texts:
        for sentence in re.split(r"[.!?]\s", text):
            for word in _WORD.findall(sentence)[1:]:
                if len(word) > 1 and word[0].isupper() and word[1:].islower():
                    found.setdefault(word.lower(), word)
    return list(found.values())


def names_held(asked: int, held: int) -> float:
    """The share of ``asked`` names that some visible fact holds (1 when none is asked)."""
    if not 0 <= held <= asked:
        raise ValueError(f"names held must be between 0 and the {asked} asked, got {held}")
    return 1.0 if asked == 0 else held / asked


def answerable(relevances: list[float | None], line: float = ABSTAIN_BELOW) -> bool:
    """Whether a search found something relevant: a hit at or over the line, or a hit whose
    relevance no one can tell (kept rather than dropped on no evidence)."""
    return any(r is None or r >= line for r in relevances)
