"""OpenAIEmbedder against the OpenAI stand-in's /v1/embeddings."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from eden_memory.adapters.embedders.openai import OpenAIEmbedder
from eden_memory.adapters.providers_common import ProviderUnavailableError
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ProviderAuthError, ProviderError
from tests.providers import openai_wire
from tests.providers.conftest import FAST
from tests.providers.standin import Reply, StandIn

MakeEmbedder = Callable[..., OpenAIEmbedder]
TEXTS = [f"fact number {i}: Alice likes tea #{i}" for i in range(7)]


@pytest.fixture
async def make_embedder(openai_server: StandIn) -> AsyncIterator[MakeEmbedder]:
    made: list[OpenAIEmbedder] = []

    def make(**settings: Any) -> OpenAIEmbedder:
        options = {"api_key": "sk-test", "base_url": f"{openai_server.url}/v1", **FAST}
        embedder = OpenAIEmbedder(**(options | settings))
        made.append(embedder)
        return embedder

    yield make
    for embedder in made:
        await embedder.aclose()


def close_to(actual: list[float], expected: list[float]) -> bool:
    return all(math.isclose(a, e, abs_tol=1e-6) for a, e in zip(actual, expected, strict=True))


def test_the_default_space_is_text_embedding_3_small_at_1536(make_embedder: MakeEmbedder) -> None:
    assert make_embedder().space == EmbeddingSpace("text-embedding-3-small", 1536)


async def test_the_request_names_the_model_and_the_dimensions(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    await make_embedder(dimensions=256).embed(["Alice likes tea"], TextRole.PASSAGE)

    sent = openai_server.requests[0]
    assert sent.path == "/v1/embeddings"
    assert sent.body["model"] == "text-embedding-3-small"
    assert sent.body["dimensions"] == 256
    assert sent.body["input"] == ["Alice likes tea"]


async def test_vectors_come_back_in_input_order_at_unit_length_with_tokens(
    make_embedder: MakeEmbedder,
) -> None:
    result = await make_embedder(dimensions=64).embed(TEXTS, TextRole.PASSAGE)

    assert len(result.vectors) == len(TEXTS)
    for text, vector in zip(TEXTS, result.vectors, strict=True):
        assert close_to(vector, openai_wire.vector_for(text, 64))
        assert math.isclose(math.fsum(v * v for v in vector), 1.0, rel_tol=1e-9)
    assert result.input_tokens == sum(math.ceil(len(t) / 4) for t in TEXTS)


async def test_rows_are_put_back_in_order_by_their_index(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    body = openai_wire.embeddings_body({"model": "text-embedding-3-small", "input": TEXTS[:3]})
    body["data"].reverse()
    openai_server.queue(Reply(200, body))

    result = await make_embedder().embed(TEXTS[:3], TextRole.PASSAGE)

    for text, vector in zip(TEXTS[:3], result.vectors, strict=True):
        assert close_to(vector, openai_wire.vector_for(text, 1536))


async def test_a_large_call_is_split_into_batches_within_the_item_limit(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    result = await make_embedder(dimensions=8, max_batch_size=3).embed(TEXTS, TextRole.PASSAGE)

    assert [len(r.body["input"]) for r in openai_server.requests] == [3, 3, 1]
    for text, vector in zip(TEXTS, result.vectors, strict=True):
        assert close_to(vector, openai_wire.vector_for(text, 8))


async def test_batches_also_respect_the_token_budget(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    texts = ["x" * 40] * 5  # 40 bytes each: at most two per 100-token request

    await make_embedder(dimensions=8, max_batch_tokens=100).embed(texts, TextRole.PASSAGE)

    assert [len(r.body["input"]) for r in openai_server.requests] == [2, 2, 1]


async def test_nothing_to_embed_makes_no_request(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    result = await make_embedder().embed([], TextRole.PASSAGE)

    assert result.vectors == []
    assert openai_server.requests == []


async def test_a_rate_limited_batch_is_retried_alone(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    first = openai_wire.embeddings_body({"model": "m", "input": TEXTS[:3], "dimensions": 8})
    openai_server.queue(Reply(200, first), openai_wire.rate_limited())

    result = await make_embedder(dimensions=8, max_batch_size=3).embed(TEXTS, TextRole.PASSAGE)

    assert [len(r.body["input"]) for r in openai_server.requests] == [3, 3, 3, 1]
    assert len(result.vectors) == len(TEXTS)


async def test_server_errors_are_retried_until_the_retries_run_out(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    openai_server.queue(*[openai_wire.server_error()] * 3)

    with pytest.raises(ProviderUnavailableError):
        await make_embedder().embed(["Alice likes tea"], TextRole.PASSAGE)
    assert len(openai_server.requests) == 3


async def test_an_answer_without_usage_still_embeds_counting_no_tokens(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    """Several compatible servers send no ``usage``."""
    body = openai_wire.embeddings_body({"model": "m", "input": TEXTS[:2], "dimensions": 16})
    del body["usage"]
    openai_server.queue(Reply(200, body))

    result = await make_embedder(dimensions=16).embed(TEXTS[:2], TextRole.PASSAGE)

    assert result.input_tokens == 0
    assert close_to(result.vectors[1], openai_wire.vector_for(TEXTS[1], 16))


async def test_vectors_sent_as_json_numbers_are_read_as_well_as_base64(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    body = openai_wire.embeddings_body({"model": "m", "input": TEXTS[:2], "dimensions": 16})
    openai_server.queue(Reply(200, body))

    result = await make_embedder(dimensions=16).embed(TEXTS[:2], TextRole.PASSAGE)

    assert openai_server.requests[0].body["encoding_format"] == "base64"
    assert close_to(result.vectors[0], openai_wire.vector_for(TEXTS[0], 16))


async def test_vectors_of_another_dimension_are_refused(
    make_embedder: MakeEmbedder, openai_server: StandIn
) -> None:
    body = openai_wire.embeddings_body({"model": "m", "input": ["a"], "dimensions": 1536})
    openai_server.queue(Reply(200, body))

    with pytest.raises(ProviderError, match="1536 dimensions where text-embedding-3-small"):
        await make_embedder(dimensions=512).embed(["a"], TextRole.PASSAGE)


async def test_a_rejected_key_is_an_auth_error_naming_the_variable(
    make_embedder: MakeEmbedder,
) -> None:
    with pytest.raises(ProviderAuthError, match="OPENAI_API_KEY"):
        await make_embedder(api_key=openai_wire.WRONG_KEY).embed(
            ["Alice likes tea"], TextRole.PASSAGE
        )


def test_a_missing_key_is_an_auth_error_naming_the_variable() -> None:
    with pytest.raises(ProviderAuthError, match="set OPENAI_API_KEY"):
        OpenAIEmbedder()
