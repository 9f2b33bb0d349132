"""Reranking: a second judge reorders the best candidates of a fused search.

The retrievers compare a question with each fact on its own (a vector, shared words); a
reranker reads the question and the fact together (a cross-encoder, or a language model)
and can tell "Where did Ana move?" from a fact about Ana that only shares her name. It is
slow, so it sees only the fused list's best ``depth`` candidates; everything below keeps
its fused place.

Two shapes of judgement become one: a cross-encoder scores every candidate; a language
model names the useful ones, best first (``scores_from_choice``). Ties, and candidates a
model left out, keep their fused order: a reranker can only move what it has an opinion on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum


class RerankBy(StrEnum):
    """Who reranks a search's best candidates (``SearchSettings.rerank``)."""

    OFF = "off"
    LLM = "llm"  # the memory's own fast model, or ``rerank_model`` on its provider
    CROSS_ENCODER = "cross_encoder"  # a cross-encoder in a local folder (``rerank_model``)


class RerankAnswerError(ValueError):
    """The reranker's answer does not fit the candidates it was shown."""


def rerank_order(candidates: int, scores: Sequence[float]) -> list[int]:
    """Positions ``0..candidates-1`` in their new order: the first ``len(scores)`` by score,
    best first (ties in fused order), then the rest as they were.

    Raises ``RerankAnswerError`` for more scores than candidates or a score that is not a
    finite number: a NaN would sort anywhere and silently scramble the list.
    """
    if candidates < 0:
        raise RerankAnswerError(f"candidates must be 0 or more, got {candidates}")
    if len(scores) > candidates:
        raise RerankAnswerError(f"{len(scores)} scores for {candidates} candidates")
    if any(not math.isfinite(s) for s in scores):
        raise RerankAnswerError("every rerank score must be a finite number")
    judged = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return judged + list(range(len(scores), candidates))


def scores_from_choice(chosen: Sequence[int], shown: int) -> list[float]:
    """Scores for ``shown`` candidates numbered from 1, from the numbers a model chose, best
    first: the first chosen scores ``len(chosen)``, the next one less, the unchosen 0.

    Raises ``RerankAnswerError`` for a number that was not shown or is named twice: such an
    answer was not about this list.
    """
    seen: set[int] = set()
    for number in chosen:
        if isinstance(number, bool) or not 1 <= number <= shown:
            raise RerankAnswerError(f"memory {number!r} was not shown (1 to {shown} were)")
        if number in seen:
            raise RerankAnswerError(f"memory {number} was named twice")
        seen.add(number)
    scores = [0.0] * shown
    for place, number in enumerate(chosen):
        scores[number - 1] = float(len(chosen) - place)
    return scores
