"""The similarity floors of the embedder in use: recorded for known models, measured otherwise.

Search and dedup take their cosine floors from here unless settings fix them. A model with a
recorded calibration (``domain.calibration.RECORDED``) costs nothing; any other model is
measured once per process on the calibration pairs (about 200 short texts: the questions in
one embedding call, the facts in another), the first time a floor is needed. ``eden-memory
calibrate`` prints the floors, and measures them on the user's own pairs when given a file.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from eden_memory.application.search.calibration_set import QUESTIONS, SAME_ATTRIBUTE
from eden_memory.domain.calibration import RECORDED, Calibration, PairScores, calibrate
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.vectors import cosine
from eden_memory.ports.embedder import Embedder

Pairs = Sequence[tuple[str, str]]


async def measure(
    embedder: Embedder,
    questions: Pairs = QUESTIONS,
    same_attribute: Pairs = SAME_ATTRIBUTE,
    source: str = "measured on the built-in calibration pairs",
) -> Calibration:
    """Embed the pairs in one call and read the floors off their similarities."""
    scores = await pair_scores(embedder, questions, same_attribute)
    return calibrate(embedder.space.model, scores, source)


async def pair_scores(
    embedder: Embedder, questions: Pairs = QUESTIONS, same_attribute: Pairs = SAME_ATTRIBUTE
) -> PairScores:
    """The cosines of the calibration pairs under ``embedder``, each text in its role in the
    library: questions as search queries, facts as passages (one embedding call per role)."""
    asked = await _vectors(embedder, [q for q, _ in questions], TextRole.QUERY)
    facts = [f for _, f in questions]
    stated = await _vectors(
        embedder, [*facts, *(t for p in same_attribute for t in p)], TextRole.PASSAGE
    )

    def cos(question: str, fact: str) -> float:
        return cosine(asked[question], stated[fact])

    def between(a: str, b: str) -> float:
        return cosine(stated[a], stated[b])

    answers = [cos(q, f) for q, f in questions]
    same = [between(a, b) for a, b in same_attribute]
    unrelated = [
        cos(q, f)
        for i, (q, _) in enumerate(questions)
        for j, (_, f) in enumerate(questions)
        if i != j
    ]
    unrelated += [between(a, b) for i, a in enumerate(facts) for b in facts[i + 1 :]]
    return PairScores(answers, same, unrelated)


async def _vectors(
    embedder: Embedder, texts: Sequence[str], role: TextRole
) -> dict[str, list[float]]:
    unique = list(dict.fromkeys(texts))
    return dict(zip(unique, (await embedder.embed(unique, role)).vectors, strict=True))


class Calibrations:
    """The calibration of one embedder, looked up or measured once and then kept."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._measured: dict[EmbeddingSpace, Calibration] = {}
        self._lock = asyncio.Lock()

    async def current(self) -> Calibration:
        space = self._embedder.space
        recorded = RECORDED.get(space.model)
        if recorded is not None:
            return recorded
        async with self._lock:  # concurrent first searches measure once
            if space not in self._measured:
                self._measured[space] = await measure(self._embedder)
            return self._measured[space]
