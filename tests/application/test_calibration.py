"""Similarity floors: recorded for known models, measured once for the others."""

from __future__ import annotations

import asyncio

from eden_memory.application.search.calibration import Calibrations, measure
from eden_memory.application.search.calibration_set import QUESTIONS, SAME_ATTRIBUTE
from eden_memory.domain.calibration import RECORDED
from eden_memory.domain.embedding_space import TextRole
from eden_memory.testing import KeywordEmbedder


async def test_a_recorded_model_costs_no_embedding_call() -> None:
    embedder = KeywordEmbedder()
    floors = await Calibrations(embedder).current()
    assert floors == RECORDED["keyword-hash"]
    assert embedder.calls == 0


async def test_an_unknown_model_is_measured_once_in_a_call_per_role_when_asked_at_once() -> None:
    embedder = KeywordEmbedder(model="someone-elses-model")
    calibrations = Calibrations(embedder)
    first, *others = await asyncio.gather(*(calibrations.current() for _ in range(5)))
    assert embedder.calls == 2  # the questions as queries, the facts as passages
    assert set(embedder.texts_by_role) == {TextRole.QUERY, TextRole.PASSAGE}
    assert all(o == first for o in others)
    assert first.model == "someone-elses-model"
    assert "measured" in first.source
    # Words shared with the question make its answer score over unrelated pairs.
    assert -1.0 <= first.search_floor < first.dedup_floor <= 1.0


async def test_a_user_can_measure_on_pairs_of_their_own() -> None:
    embedder = KeywordEmbedder(model="their-model")
    mine = await measure(embedder, QUESTIONS[:10], SAME_ATTRIBUTE[:10], source="my pairs")
    assert mine.source == "my pairs"
    assert embedder.calls == 2
