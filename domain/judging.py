"""Judging: whether any of a search's best hits answers the question at all.

Relevance reads statistics of the store (``domain/relevance.py``): within one user's memory a
plausible question that nothing answers ("does she have a dog?") often has a fact that stands
out as much as a real answer does, because every fact shares the user's name and style. A
judge that reads the question and the hits together can tell "this fact answers it" from
"this fact is about the same person". It runs after abstention, on the few best hits only,
and decides one thing: whether the search answers. It reorders and drops nothing: a small
model's "no" about one hit of three is noisy, and the hits under the best are often the
details an answer needs.

``answering`` checks a judge's answer against the hits it was shown: a number that was not
shown or is named twice means the answer was about another list, and such an answer must
not empty a search (the search then keeps its results, as it does when a reranker fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

# A judge reads at most this many hits: the call is on a search's path, and an answer is
# near the top or the judge is not the tool to find it.
MAX_JUDGED = 10


class JudgeBy(StrEnum):
    """Who judges whether a search's best hits answer it (``SearchSettings.judge``)."""

    OFF = "off"
    LLM = "llm"  # the memory's own fast model, or ``judge_model`` on its provider


class JudgeAnswerError(ValueError):
    """The judge's answer does not fit the hits it was shown."""


def answering(chosen: Sequence[int], shown: int) -> frozenset[int]:
    """The positions (from 0) of the hits a judge said answer the question, from the
    numbers it chose (from 1, of ``shown`` hits); empty: none answers.

    Raises ``JudgeAnswerError`` for a number that was not shown, or named twice.
    """
    if not 1 <= shown <= MAX_JUDGED:
        raise JudgeAnswerError(f"a judge is shown 1 to {MAX_JUDGED} hits, not {shown}")
    seen: set[int] = set()
    for number in chosen:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= shown:
            raise JudgeAnswerError(f"hit {number!r} was not shown (1 to {shown} were)")
        if number in seen:
            raise JudgeAnswerError(f"hit {number} was named twice")
        seen.add(number)
    return frozenset(n - 1 for n in seen)
