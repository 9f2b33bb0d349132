"""The query vector cache: hits, misses, eviction, models kept apart, copies handed out."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.wrappers import QueryVectorCache
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ProviderError
from eden_memory.ports.embedder import Embeddings


class CountingEmbedder:
    """A vector per text from its length, every text it was asked for recorded."""

    def __init__(self, model: str = "m", short: bool = False) -> None:
        self.space = EmbeddingSpace(model, 2)
        self.asked: list[list[str]] = []
        self._short = short

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        self.asked.append(list(texts))
        vectors = [[float(len(t)), 1.0 if role is TextRole.QUERY else 0.0] for t in texts]
        return Embeddings(vectors[1:] if self._short else vectors, input_tokens=len(texts))


async def test_a_repeated_query_is_embedded_once() -> None:
    inner = CountingEmbedder()
    cache = QueryVectorCache(inner, 8)
    first = await cache.embed(["where", "who"], TextRole.QUERY)
    again = await cache.embed(["who", "where"], TextRole.QUERY)
    assert inner.asked == [["where", "who"]]
    assert again.vectors == [first.vectors[1], first.vectors[0]]
    assert again.input_tokens == 0


async def test_a_batch_embeds_only_its_unseen_texts_once_each() -> None:
    inner = CountingEmbedder()
    cache = QueryVectorCache(inner, 8)
    await cache.embed(["a"], TextRole.QUERY)
    found = await cache.embed(["bb", "a", "bb"], TextRole.QUERY)
    assert inner.asked == [["a"], ["bb"]]
    assert found.vectors == [[2.0, 1.0], [1.0, 1.0], [2.0, 1.0]]
    assert found.input_tokens == 1


async def test_stored_texts_are_never_cached() -> None:
    inner = CountingEmbedder()
    cache = QueryVectorCache(inner, 8)
    await cache.embed(["fact"], TextRole.PASSAGE)
    await cache.embed(["fact"], TextRole.PASSAGE)
    assert inner.asked == [["fact"], ["fact"]]
    assert len(cache) == 0


async def test_the_least_recently_used_query_is_dropped_first() -> None:
    inner = CountingEmbedder()
    cache = QueryVectorCache(inner, 2)
    await cache.embed(["a", "bb"], TextRole.QUERY)
    await cache.embed(["a"], TextRole.QUERY)  # "a" used again: "bb" is now the oldest
    await cache.embed(["ccc"], TextRole.QUERY)
    await cache.embed(["a", "bb"], TextRole.QUERY)
    assert inner.asked == [["a", "bb"], ["ccc"], ["bb"]]
    assert len(cache) == 2


async def test_another_model_never_gets_the_first_models_vector() -> None:
    inner = CountingEmbedder("small")
    cache = QueryVectorCache(inner, 8)
    await cache.embed(["where"], TextRole.QUERY)
    inner.space = EmbeddingSpace("large", 2)
    await cache.embed(["where"], TextRole.QUERY)
    assert inner.asked == [["where"], ["where"]]


async def test_a_vector_handed_out_is_a_copy_nobody_else_sees_changed() -> None:
    cache = QueryVectorCache(CountingEmbedder(), 8)
    first = await cache.embed(["where"], TextRole.QUERY)
    first.vectors[0][0] = 99.0
    second = await cache.embed(["where"], TextRole.QUERY)
    second.vectors[0][1] = -1.0
    assert (await cache.embed(["where"], TextRole.QUERY)).vectors == [[5.0, 1.0]]


async def test_a_cache_of_no_entries_passes_every_call_through() -> None:
    inner = CountingEmbedder()
    cache = QueryVectorCache(inner, 0)
    await cache.embed(["a"], TextRole.QUERY)
    await cache.embed(["a"], TextRole.QUERY)
    assert inner.asked == [["a"], ["a"]]


async def test_a_short_answer_is_a_provider_error_and_nothing_is_cached() -> None:
    cache = QueryVectorCache(CountingEmbedder(short=True), 8)
    with pytest.raises(ProviderError, match="1 vectors for 2 texts"):
        await cache.embed(["a", "b"], TextRole.QUERY)
    assert len(cache) == 0


def test_a_negative_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        QueryVectorCache(CountingEmbedder(), -1)


@settings(max_examples=60, deadline=None)
@given(
    bound=st.integers(min_value=0, max_value=5),
    batches=st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=4), max_size=12),
)
async def test_the_cache_never_holds_more_than_its_bound_and_always_answers_right(
    bound: int, batches: list[list[str]]
) -> None:
    cache = QueryVectorCache(CountingEmbedder(), bound)
    for batch in batches:
        found = await cache.embed(batch, TextRole.QUERY)
        assert found.vectors == [[float(len(t)), 1.0] for t in batch]
        assert len(cache) <= bound
