"""The embedder contract: what every ``Embedder`` adapter must do.

Subclass ``EmbedderContract`` in a ``test_*.py`` module and provide the fixture
``embedder``: a ready ``Embedder`` (real adapters use a recorded or mocked transport).
"""

from __future__ import annotations

import math

import pytest

from eden_memory.ports.embedder import Embedder

TEXTS = [
    "Alice's email is alice@example.com",
    "The Mars festival budget is 50,000 dollars",
    "Bob prefers tea over coffee",
]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


class EmbedderContract:
    @pytest.fixture
    def embedder(self) -> Embedder:
        raise NotImplementedError("an embedder contract subclass must provide `embedder`")

    def test_the_space_names_a_model_and_a_dimension(self, embedder: Embedder) -> None:
        assert embedder.space.model
        assert embedder.space.dimension > 0

    async def test_one_unit_vector_per_text_of_the_space_dimension(
        self, embedder: Embedder
    ) -> None:
        result = await embedder.embed(TEXTS)
        assert len(result.vectors) == len(TEXTS)
        for vector in result.vectors:
            assert len(vector) == embedder.space.dimension
            assert math.sqrt(sum(v * v for v in vector)) == pytest.approx(1.0, abs=1e-3)
        assert result.input_tokens >= 0

    async def test_vectors_follow_the_input_order(self, embedder: Embedder) -> None:
        forward = await embedder.embed(TEXTS)
        backward = await embedder.embed(TEXTS[::-1])
        for a, b in zip(forward.vectors, backward.vectors[::-1], strict=True):
            assert cosine(a, b) > 0.99

    async def test_equal_texts_embed_alike(self, embedder: Embedder) -> None:
        result = await embedder.embed([TEXTS[0], TEXTS[1], TEXTS[0]])
        assert cosine(result.vectors[0], result.vectors[2]) > 0.99

    async def test_an_empty_batch_embeds_nothing(self, embedder: Embedder) -> None:
        assert (await embedder.embed([])).vectors == []

    async def test_a_large_batch_comes_back_whole(self, embedder: Embedder) -> None:
        texts = [f"fact number {n} about item {n * 7}" for n in range(250)]
        result = await embedder.embed(texts)
        assert len(result.vectors) == len(texts)
        single = await embedder.embed([texts[137]])
        assert cosine(result.vectors[137], single.vectors[0]) > 0.99
