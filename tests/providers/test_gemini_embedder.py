"""GeminiEmbedder against the Gemini stand-in's batchEmbedContents."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from eden_memory.adapters.embedders.gemini import GeminiEmbedder
from eden_memory.adapters.providers_common import ProviderUnavailableError
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ProviderAuthError, ProviderRateLimitError
from tests.providers import gemini_wire
from tests.providers.conftest import FAST
from tests.providers.openai_wire import vector_for
from tests.providers.standin import StandIn

MakeEmbedder = Callable[..., GeminiEmbedder]
TEXTS = [f"fact number {i}: Alice likes tea #{i}" for i in range(7)]


@pytest.fixture
async def make_embedder(gemini_server: StandIn) -> AsyncIterator[MakeEmbedder]:
    made: list[GeminiEmbedder] = []

    def make(**settings: Any) -> GeminiEmbedder:
        options = {"api_key": "test-key", "base_url": gemini_server.url, **FAST}
        embedder = GeminiEmbedder(**(options | settings))
        made.append(embedder)
        return embedder

    yield make
    for embedder in made:
        await embedder.aclose()


def test_the_default_space_is_gemini_embedding_001_at_1536(make_embedder: MakeEmbedder) -> None:
    assert make_embedder().space == EmbeddingSpace("gemini-embedding-001", 1536)


async def test_the_request_names_the_model_and_the_output_dimensionality(
    make_embedder: MakeEmbedder, gemini_server: StandIn
) -> None:
    await make_embedder(output_dimensionality=768, task_type="SEMANTIC_SIMILARITY").embed(
        ["Alice likes tea", "Bob likes coffee"], TextRole.PASSAGE
    )

    sent = gemini_server.requests[0]
    assert sent.path.endswith("/models/gemini-embedding-001:batchEmbedContents")
    assert sent.headers["x-goog-api-key"] == "test-key"
    items = sent.body["requests"]
    assert [item["content"]["parts"][0]["text"] for item in items] == [
        "Alice likes tea",
        "Bob likes coffee",
    ]
    assert {item["outputDimensionality"] for item in items} == {768}
    assert {item["taskType"] for item in items} == {"SEMANTIC_SIMILARITY"}
    assert {item["model"] for item in items} == {"models/gemini-embedding-001"}


@pytest.mark.parametrize(
    ("role", "task_type"),
    [(TextRole.QUERY, "RETRIEVAL_QUERY"), (TextRole.PASSAGE, "RETRIEVAL_DOCUMENT")],
)
async def test_without_a_task_type_set_the_role_chooses_it(
    make_embedder: MakeEmbedder, gemini_server: StandIn, role: TextRole, task_type: str
) -> None:
    result = await make_embedder(output_dimensionality=8).embed(["Alice likes tea"], role)

    assert {i["taskType"] for i in gemini_server.requests[0].body["requests"]} == {task_type}
    raw = gemini_wire.raw_vector_for("Alice likes tea", 8, task_type)
    assert result.vectors[0] == pytest.approx([v / gemini_wire.norm(raw) for v in raw])


async def test_a_task_type_set_by_the_user_is_sent_for_queries_and_facts_alike(
    make_embedder: MakeEmbedder, gemini_server: StandIn
) -> None:
    embedder = make_embedder(output_dimensionality=8, task_type="SEMANTIC_SIMILARITY")

    query = await embedder.embed(["Alice likes tea"], TextRole.QUERY)
    fact = await embedder.embed(["Alice likes tea"], TextRole.PASSAGE)

    sent = [item["taskType"] for r in gemini_server.requests for item in r.body["requests"]]
    assert sent == ["SEMANTIC_SIMILARITY", "SEMANTIC_SIMILARITY"]
    assert query.vectors == fact.vectors


async def test_truncated_vectors_are_normalized_and_kept_in_input_order(
    make_embedder: MakeEmbedder,
) -> None:
    result = await make_embedder(output_dimensionality=64).embed(TEXTS, TextRole.PASSAGE)

    for text, vector in zip(TEXTS, result.vectors, strict=True):
        raw = gemini_wire.raw_vector_for(text, 64, "RETRIEVAL_DOCUMENT")
        assert not math.isclose(gemini_wire.norm(raw), 1.0)  # Gemini's own length
        assert math.isclose(gemini_wire.norm(vector), 1.0, rel_tol=1e-9)
        assert all(
            math.isclose(v, r / gemini_wire.norm(raw), abs_tol=1e-9)
            for v, r in zip(vector, raw, strict=True)
        )


async def test_a_large_call_is_split_into_batches_of_at_most_100(
    make_embedder: MakeEmbedder, gemini_server: StandIn
) -> None:
    texts = [f"text {i}" for i in range(230)]

    result = await make_embedder(output_dimensionality=8).embed(texts, TextRole.PASSAGE)

    assert [len(r.body["requests"]) for r in gemini_server.requests] == [100, 100, 30]
    assert len(result.vectors) == 230
    assert result.vectors[229] == pytest.approx(vector_for("text 229", 8))


async def test_a_rate_limit_then_success_is_a_success(
    make_embedder: MakeEmbedder, gemini_server: StandIn
) -> None:
    gemini_server.queue(gemini_wire.rate_limited())

    result = await make_embedder(output_dimensionality=8).embed(
        ["Alice likes tea"], TextRole.PASSAGE
    )

    assert len(result.vectors) == 1
    assert len(gemini_server.requests) == 2


async def test_a_lasting_rate_limit_is_a_rate_limit_error(
    make_embedder: MakeEmbedder, gemini_server: StandIn
) -> None:
    gemini_server.queue(*[gemini_wire.rate_limited()] * 3)

    with pytest.raises(ProviderRateLimitError):
        await make_embedder().embed(["Alice likes tea"], TextRole.PASSAGE)


async def test_server_errors_are_retried_until_the_retries_run_out(
    make_embedder: MakeEmbedder, gemini_server: StandIn
) -> None:
    gemini_server.queue(*[gemini_wire.server_error()] * 3)

    with pytest.raises(ProviderUnavailableError):
        await make_embedder().embed(["Alice likes tea"], TextRole.PASSAGE)
    assert len(gemini_server.requests) == 3


async def test_a_rejected_key_is_an_auth_error_naming_the_variables(
    make_embedder: MakeEmbedder,
) -> None:
    with pytest.raises(ProviderAuthError, match="GOOGLE_API_KEY or GEMINI_API_KEY"):
        await make_embedder(api_key=gemini_wire.WRONG_KEY).embed(
            ["Alice likes tea"], TextRole.PASSAGE
        )


def test_a_missing_key_is_an_auth_error() -> None:
    with pytest.raises(ProviderAuthError, match="Gemini needs an API key"):
        GeminiEmbedder()
