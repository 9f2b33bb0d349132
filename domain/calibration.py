"""Similarity floors that mean the same thing whatever the embedder.

A cosine of 0.5 is a close match for one model and noise for another, so no single number
can be the floor of every model. A floor is instead read off the model's own similarities on
a fixed set of sentence pairs (``application/search/calibration_set.py``):

* **search**: a hit must score above what 95% of *unrelated* pairs score, but the floor never
  rises above what 90% of question/answer pairs reach (a model that scores unrelated text
  high keeps its answers rather than its precision);
* **relevance**: a hit's cosine is read against the unrelated pairs' median, 95th percentile
  and maximum (``relevance.SemanticScale``): what says a search found nothing relevant;
* **dedup**: a candidate must score as high as 90% of pairs that state *the same attribute*
  (a restatement, an update, a contradiction) do, but never lower than 99% of unrelated pairs,
  so the judge is not asked about facts that merely share a style.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.domain.relevance import SemanticScale

SEARCH_UNRELATED_QUANTILE = 0.95
SEARCH_ANSWER_QUANTILE = 0.10
DEDUP_SAME_QUANTILE = 0.10
DEDUP_UNRELATED_QUANTILE = 0.99
GAP = 0.001


@dataclass(frozen=True)
class Calibration:
    """The floors of one embedding model, and where they come from."""

    model: str
    search_floor: float
    dedup_floor: float
    source: str
    scale: SemanticScale  # the unrelated pairs' cosines, for relevance and abstention


@dataclass(frozen=True)
class PairScores:
    """Cosines of the calibration pairs under one model."""

    answers: Sequence[float]  # question and the fact that answers it
    same_attribute: Sequence[float]  # two facts about the same thing
    unrelated: Sequence[float]  # items of different pairs


def calibrate(model: str, scores: PairScores, source: str) -> Calibration:
    """The floors a model's similarities on the calibration pairs call for."""
    if not (scores.answers and scores.same_attribute and scores.unrelated):
        raise ValueError("calibration needs scores of every kind of pair")
    search = min(
        quantile(scores.unrelated, SEARCH_UNRELATED_QUANTILE),
        quantile(scores.answers, SEARCH_ANSWER_QUANTILE),
    )
    dedup = max(
        quantile(scores.same_attribute, DEDUP_SAME_QUANTILE),
        quantile(scores.unrelated, DEDUP_UNRELATED_QUANTILE),
    )
    return Calibration(model, _clamp(search), _clamp(dedup), source, unrelated_scale(scores))


def unrelated_scale(scores: PairScores) -> SemanticScale:
    """The median, 95th percentile and maximum of the unrelated pairs' cosines, kept apart by
    at least ``GAP`` (a model scoring every unrelated pair alike still gets a usable scale)."""
    typical = min(_clamp(quantile(scores.unrelated, 0.5)), 1.0 - 2 * GAP)
    line = min(
        max(_clamp(quantile(scores.unrelated, SEARCH_UNRELATED_QUANTILE)), typical + GAP),
        1.0 - GAP,
    )
    most = min(1.0, max(_clamp(max(scores.unrelated)), line + GAP))
    return SemanticScale(typical, line, most)


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile with linear interpolation (numpy's default method)."""
    if not values or not 0.0 <= q <= 1.0:
        raise ValueError("a quantile needs values and 0 <= q <= 1")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _clamp(value: float) -> float:
    return round(min(1.0, max(-1.0, value)), 3)


# Floors recorded by ``python -m benchmarks.calibrate`` (the pairs of
# ``application/search/calibration_set.py``). The test embedders keep the seeds' numbers: their
# similarity is shared words (or none at all), and the suites are written against them.
RECORDED: dict[str, Calibration] = {
    "all-MiniLM-L6-v2": Calibration(
        "all-MiniLM-L6-v2",
        0.227,
        0.684,
        "python -m benchmarks.calibrate, the built-in pairs",
        SemanticScale(0.049, 0.235, 0.544),
    ),
    # e5 scores every pair high (unrelated pairs: median 0.75): the reason floors are per model.
    # Questions embedded as queries, facts as passages (TextRole), as search and dedup do.
    "multilingual-e5-small-q4": Calibration(
        "multilingual-e5-small-q4",
        0.776,
        0.893,
        "python -m benchmarks.calibrate, the built-in pairs",
        SemanticScale(0.753, 0.815, 0.883),
    ),
    # The test embedders' relevance line is their search floor: a hit that clears the floor
    # is relevant, as the suites written against the seeds' numbers expect.
    "fake-hash": Calibration(
        "fake-hash", 0.65, 0.7, "test embedder: the seeds' numbers", SemanticScale(0.0, 0.65, 0.9)
    ),
    "keyword-hash": Calibration(
        "keyword-hash",
        0.65,
        0.7,
        "test embedder: the seeds' numbers",
        SemanticScale(0.0, 0.65, 0.9),
    ),
}
