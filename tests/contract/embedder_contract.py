"""The embedder contract: what every ``Embedder`` adapter must do.

Subclass ``EmbedderContract`` in a ``test_*.py`` module and provide the fixture
``embedder``: a ready ``Embedder`` (real adapters use a recorded or mocked transport), and
say with ``symmetric`` whether its model embeds a search query like a stored text (MiniLM,
OpenAI) or not (e5's prefixes, Gemini's task types): the suite holds it to that.
"""

from __future__ import annotations

import math

import pytest

from eden_memory.domain.embedding_space import TextRole
from eden_memory.ports.embedder import Embedder

TEXTS = [
    "Alice's email is alice@example.com",
    "The Mars festival budget is 50,000 dollars",
    "Bob prefers tea over coffee",
]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


class EmbedderContract:
    symmetric: bool  # every subclass says: no default, so no adapter is assumed either way

    @pytest.fixture
    def embedder(self) -> Embedder:
        raise NotImplementedError("an embedder contract subclass must provide `embedder`")

    async def test_queries_are_unit_vectors_of_the_space_too(self, embedder: Embedder) -> None:
        result = await embedder.embed(TEXTS, TextRole.QUERY)
        assert len(result.vectors) == len(TEXTS)
        for vector in result.vectors:
            assert len(vector) == embedder.space.dimension
            assert math.sqrt(sum(v * v for v in vector)) == pytest.approx(1.0, abs=1e-3)

    async def test_the_role_changes_the_vectors_only_of_an_asymmetric_model(
        self, embedder: Embedder
    ) -> None:
        queries = (await embedder.embed(TEXTS, TextRole.QUERY)).vectors
        passages = (await embedder.embed(TEXTS, TextRole.PASSAGE)).vectors
        same = [cosine(q, p) for q, p in zip(queries, passages, strict=True)]
        if self.symmetric:
            assert min(same) > 0.999
        else:
            assert max(same) < 0.999

    async def test_a_query_is_nearest_to_the_passage_of_its_own_text(
        self, embedder: Embedder
    ) -> None:
        queries = (await embedder.embed(TEXTS, TextRole.QUERY)).vectors
        passages = (await embedder.embed(TEXTS, TextRole.PASSAGE)).vectors
        for i, query in enumerate(queries):
            scores = [cosine(query, p) for p in passages]
            assert scores.index(max(scores)) == i

    def test_the_space_names_a_model_and_a_dimension(self, embedder: Embedder) -> None:
        assert embedder.space.model
        assert embedder.space.dimension > 0

    async def test_one_unit_vector_per_text_of_the_space_dimension(
        self, embedder: Embedder
    ) -> None:
        result = await embedder.embed(TEXTS, TextRole.PASSAGE)
        assert len(result.vectors) == len(TEXTS)
        for vector in result.vectors:
            assert len(vector) == embedder.space.dimension
            assert math.sqrt(sum(v * v for v in vector)) == pytest.approx(1.0, abs=1e-3)
        assert result.input_tokens >= 0

    async def test_vectors_follow_the_input_order(self, embedder: Embedder) -> None:
        forward = await embedder.embed(TEXTS, TextRole.PASSAGE)
        backward = await embedder.embed(TEXTS[::-1], TextRole.PASSAGE)
        for a, b in zip(forward.vectors, backward.vectors[::-1], strict=True):
            assert cosine(a, b) > 0.99

    async def test_equal_texts_embed_alike(self, embedder: Embedder) -> None:
        result = await embedder.embed([TEXTS[0], TEXTS[1], TEXTS[0]], TextRole.PASSAGE)
        assert cosine(result.vectors[0], result.vectors[2]) > 0.99

    async def test_an_empty_batch_embeds_nothing(self, embedder: Embedder) -> None:
        assert (await embedder.embed([], TextRole.PASSAGE)).vectors == []

    async def test_a_large_batch_comes_back_whole(self, embedder: Embedder) -> None:
        texts = [f"fact number {n} about item {n * 7}" for n in range(250)]
        result = await embedder.embed(texts, TextRole.PASSAGE)
        assert len(result.vectors) == len(texts)
        single = await embedder.embed([texts[137]], TextRole.PASSAGE)
        assert cosine(result.vectors[137], single.vectors[0]) > 0.99
