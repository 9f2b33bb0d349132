"""The offline embedders' extras: counting, fault injection, and what similarity means."""

from __future__ import annotations

import pytest

from eden_memory.adapters.embedders.fake import FakeEmbedder, hash_vector
from eden_memory.adapters.embedders.keyword import KeywordEmbedder, stem, tokens
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import InvalidInputError, ProviderTimeoutError


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def similarity(embedder: FakeEmbedder, a: str, b: str) -> float:
    result = await embedder.embed([a, b], TextRole.PASSAGE)
    return cosine(result.vectors[0], result.vectors[1])


def test_the_space_is_the_configured_one() -> None:
    assert FakeEmbedder().space == EmbeddingSpace("fake-hash", 64)
    assert KeywordEmbedder().space == EmbeddingSpace("keyword-hash", 256)
    assert FakeEmbedder(dimension=3, model="tiny").space == EmbeddingSpace("tiny", 3)


async def test_fake_vectors_are_the_same_in_every_instance() -> None:
    one, two = FakeEmbedder(), FakeEmbedder()
    assert (await one.embed(["hello"], TextRole.PASSAGE)).vectors == (
        await two.embed(["hello"], TextRole.PASSAGE)
    ).vectors
    assert hash_vector(b"hello", 64) == (await one.embed(["hello"], TextRole.PASSAGE)).vectors[0]


async def test_fake_vectors_are_similar_only_when_texts_are_equal() -> None:
    embedder = FakeEmbedder()
    assert await similarity(embedder, "John works at Acme", "John works at Acme") == (
        pytest.approx(1.0)
    )
    assert abs(await similarity(embedder, "John works at Acme", "John works at Acme!")) < 0.5


async def test_calls_and_texts_are_counted() -> None:
    embedder = FakeEmbedder()
    await embedder.embed(["a", "b", "c"], TextRole.PASSAGE)
    await embedder.embed(["d"], TextRole.PASSAGE)
    assert (embedder.calls, embedder.texts_embedded) == (2, 4)


async def test_tokens_are_estimated_at_four_characters_each() -> None:
    result = await FakeEmbedder().embed(["12345678", "1234"], TextRole.PASSAGE)
    assert result.input_tokens == 3


async def test_fail_next_fails_exactly_one_call() -> None:
    embedder = FakeEmbedder()
    embedder.fail_next = ProviderTimeoutError("embedding timed out")
    with pytest.raises(ProviderTimeoutError):
        await embedder.embed(["x"], TextRole.PASSAGE)
    assert len((await embedder.embed(["x"], TextRole.PASSAGE)).vectors) == 1
    assert (embedder.calls, embedder.texts_embedded) == (2, 1)


async def test_keyword_vectors_are_close_for_texts_sharing_most_words() -> None:
    embedder = KeywordEmbedder()
    assert await similarity(embedder, "John works at Acme", "John works at TechCorp") > 0.7
    assert (
        await similarity(
            embedder, "Alice's email is alice@example.com", "Alice's email is alice@newmail.com"
        )
        > 0.8
    )


async def test_keyword_vectors_are_far_apart_for_unrelated_texts() -> None:
    embedder = KeywordEmbedder()
    unrelated = await similarity(
        embedder, "The weather is sunny today", "Quarterly revenue grew by ten percent"
    )
    assert abs(unrelated) < 0.3


async def test_keyword_vectors_ignore_case_punctuation_and_plurals() -> None:
    embedder = KeywordEmbedder()
    assert await similarity(embedder, "John WORKS at Acme.", "john work at acme") == (
        pytest.approx(1.0)
    )


async def test_text_without_words_still_gets_a_unit_vector() -> None:
    [vector] = (await KeywordEmbedder().embed(["?!"], TextRole.PASSAGE)).vectors
    assert sum(v * v for v in vector) == pytest.approx(1.0)


def test_tokens_are_lowercase_words_with_plural_s_stripped() -> None:
    assert tokens("Alice's CATS like Zürich's parties") == [
        "alice",
        "cat",
        "like",
        "zürich",
        "party",
    ]
    assert [stem(w) for w in ("class", "status", "analysis", "is", "bus")] == [
        "class",
        "status",
        "analysis",
        "is",
        "bus",
    ]


async def test_a_single_string_is_refused_rather_than_embedded_letter_by_letter() -> None:
    with pytest.raises(InvalidInputError, match="list of texts"):
        await FakeEmbedder().embed("hello", TextRole.PASSAGE)


async def test_texts_are_counted_by_the_role_they_were_embedded_as() -> None:
    embedder = FakeEmbedder()
    await embedder.embed(["a", "b"], TextRole.PASSAGE)
    await embedder.embed(["what is a"], TextRole.QUERY)
    assert embedder.texts_by_role == {TextRole.PASSAGE: 2, TextRole.QUERY: 1}


async def test_the_asymmetric_fake_bends_queries_and_keeps_passages() -> None:
    plain, bent = FakeEmbedder(dimension=1024), FakeEmbedder(dimension=1024, asymmetric=True)
    text = ["Alice likes tea"]
    passage = (await bent.embed(text, TextRole.PASSAGE)).vectors[0]
    query = (await bent.embed(text, TextRole.QUERY)).vectors[0]
    assert passage == (await plain.embed(text, TextRole.QUERY)).vectors[0]
    assert cosine(query, passage) == pytest.approx(2**-0.5, abs=0.1)
    assert sum(v * v for v in query) == pytest.approx(1.0)


async def test_something_that_is_not_a_role_is_refused() -> None:
    with pytest.raises(ValueError, match="not a valid TextRole"):
        await FakeEmbedder().embed(["hello"], "document")  # type: ignore[arg-type]
