"""Between two search results about the same thing, the newer ranks first and the older is
marked with it.

Two results are *about the same thing* when they hold the same supersede key of one scope
key: the host said so. Optionally (a floor given) also when their stored vectors are
near-duplicates, a cosine at or above the floor. Near-duplicates are not always one thing:
"my sister Anna is a nurse" and "my friend Anna is a teacher" score as high as an update, and
over LoCoMo's observations about one person the calibrated dedup floor pairs most results of
most searches (``benchmarks/freshness.py``), which is why the floor is off by default. So the
question decides first: when it names a word (stop words left out, by stem) that one of two
near-duplicates holds and the other lacks, and not the other way round, it asks about that
one, which ranks above the other, unmarked. Else the newer (``formed_at``) ranks directly
above the older, and the older is marked. A key pair is the same thing whatever the question
says: only time decides it. A question about the past (it names a time, "in May 2023", or
asks in the past tense, "When did ...", "What was ...") asks what was true then, not what is
now: the older is marked but keeps its place (``asks_now``).

Without a key, two facts of one owner that give one attribute of one subject different values
(``domain/attributes.py``: "lives in Portland" / "moved to Seattle") are one thing too, for a
question about now only (a guess from words marks nothing about the past). The question
decides between them by a value one of them holds alone ("Do I still live in Portland?"),
else time does.

Only pairs whose order must change move: a result is placed just above the first result it
must precede (and below every result that must precede it), and all other results keep their
relative order. Pure: the application reads the vectors and carries the order out.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from eden_memory.domain.attributes import Claim, same_attribute
from eden_memory.domain.stemming import porter_stem
from eden_memory.domain.stop_words import is_stop_word
from eden_memory.domain.temporal import time_named

_WORD = re.compile(r"[^\W_]+")
# The auxiliaries of a question in the past tense ("didn" and "t" are how "didn't" splits).
_PAST = frozenset({"did", "didn", "was", "wasn", "were", "weren", "had", "hadn"})


@dataclass(frozen=True)
class Said:
    """What the rule reads of one result."""

    formed_at: datetime
    words: frozenset[str]  # ``stems`` of its content
    vector: tuple[float, ...] = ()  # unit length (``unit``); empty: unknown
    key: str | None = None  # its scope key and supersede key, when it has one
    owner: str | None = None  # its scope key: only one owner's facts give one attribute
    claim: Claim | None = None  # what it says (``attributes.claim``); None: not compared


@dataclass(frozen=True)
class Settled:
    """The results' new order (indexes into the input, best first), and for each result
    outdated by a newer one about the same thing, the index of the newest such result."""

    order: list[int]
    newer: dict[int, int] = field(default_factory=dict)


def stems(text: str) -> frozenset[str]:
    """The stems of a text's words but its stop words, lower-cased."""
    words = _WORD.findall(text)
    return frozenset(porter_stem(w.lower()) for w in words if not is_stop_word(w))


def asks_now(question: str, now: datetime) -> bool:
    """Whether a question asks what is true now: it names no time and is not in the past
    tense (no "did", "was", "were" or "had")."""
    if time_named(question, now) is not None:
        return False
    return not any(w.lower() in _PAST for w in _WORD.findall(question))


def unit(vector: Sequence[float]) -> tuple[float, ...]:
    """``vector`` scaled to length 1 (a zero vector stays as it is)."""
    norm = math.sqrt(math.fsum(x * x for x in vector))
    return tuple(vector) if norm == 0 else tuple(x / norm for x in vector)


def newer_first(
    results: Sequence[Said], asked: frozenset[str], floor: float, *, by_time: bool = True
) -> Settled:
    """Place each result about the same thing as another where the rule above says.

    ``asked``: the stems of the question(s); ``floor``: the cosine from which two results
    are near-duplicates. ``by_time`` False (a question about the past, ``asks_now``): the
    older is still marked, and keeps its place."""
    wins: dict[int, set[int]] = {i: set() for i in range(len(results))}
    newer: dict[int, int] = {}
    for i, first in enumerate(results):
        for j in range(i + 1, len(results)):
            decided = _decide(first, results[j], asked, floor, by_time)
            if decided is None:
                continue
            won, lost = (i, j) if decided.first else (j, i)
            if by_time or not decided.by_time:
                wins[won].add(lost)
            marked = newer.get(lost)
            if decided.by_time and (
                marked is None or results[won].formed_at > results[marked].formed_at
            ):
                newer[lost] = won
    return Settled(_placed(wins), newer)


@dataclass(frozen=True)
class _Decision:
    first: bool  # the result ranked first must stay above the other
    by_time: bool  # decided by time (the older is outdated), not by the question


def _decide(
    a: Said, b: Said, asked: frozenset[str], floor: float, by_time: bool
) -> _Decision | None:
    """Which of ``a`` (ranked first) and ``b`` must rank above the other; None when they
    are not about the same thing, or either may."""
    keyed = a.key is not None and a.key == b.key
    if not keyed:  # the question may name one of two
        words = _compared(a, b, floor, by_time)
        if words is None:
            return None
        only_a, only_b = bool(asked & (words[0] - words[1])), bool(asked & (words[1] - words[0]))
        if only_a != only_b:
            return _Decision(only_a, by_time=False)
    if a.formed_at == b.formed_at:
        return None
    return _Decision(a.formed_at > b.formed_at, by_time=True)


def _compared(
    a: Said, b: Said, floor: float, by_time: bool
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The words by which a question tells two results without one key apart (a changed
    attribute's values; near-duplicates' words); None: they are not one thing."""
    changed = _changed(a, b) if by_time else None
    if changed is not None:
        return changed
    if _near(a, b, floor):
        return a.words, b.words
    return None


def _changed(a: Said, b: Said) -> tuple[frozenset[str], frozenset[str]] | None:
    """The values of two facts of one owner that give one attribute of one subject
    different values; None when they are not such a pair."""
    if a.owner is None or a.owner != b.owner or a.claim is None or b.claim is None:
        return None
    return (a.claim.values, b.claim.values) if same_attribute(a.claim, b.claim) else None


def _near(a: Said, b: Said, floor: float) -> bool:
    if not a.vector or not b.vector:
        return False
    cosine: float = sum(map(operator.mul, a.vector, b.vector))
    return cosine >= floor


def _placed(wins: dict[int, set[int]]) -> list[int]:
    """Insert results in their order, each just above the first one it must precede and
    below every one that must precede it."""
    order: list[int] = []
    for j in range(len(wins)):
        beaten = [p for p, i in enumerate(order) if i in wins[j]]
        if not beaten:
            order.append(j)
            continue
        above = [p for p, i in enumerate(order) if j in wins[i]]
        order.insert(max(beaten[0], above[-1] + 1) if above else beaten[0], j)
    return order
