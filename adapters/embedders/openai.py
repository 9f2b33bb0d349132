"""Embeddings with OpenAI (``text-embedding-3-small`` by default, 1536 dimensions).

A call of any size is split into requests within the API's limits (2048 inputs and a token
budget per request), each retried on its own, and the vectors come back in input order,
unit-normalized. OpenAI's models are symmetric: a query and a fact are embedded alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.adapters.openai_answers import EmbeddingRow, EmbeddingsAnswer
from eden_memory.adapters.openai_common import (
    DEFAULT_KEY_ENV,
    CallSite,
    answered,
    openai_client,
    provider_label,
)
from eden_memory.adapters.provider_answers import Received
from eden_memory.adapters.providers_common import batches, embed_in_batches, short
from eden_memory.adapters.vectors import unit_vectors
from eden_memory.adapters.wrappers.retry import RetryPolicy
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.ports.embedder import Embeddings

MAX_INPUTS_PER_REQUEST = 2048
# The API allows 300,000 tokens per request; the bound we count is bytes, which is never
# less than tokens, so a batch under this budget is always accepted.
MAX_TOKENS_PER_REQUEST = 300_000


class OpenAIEmbedder:
    """``Embedder`` on OpenAI (or a compatible server).

    Settings: ``model`` and ``dimensions`` (the embedding space); ``api_key`` (default: the
    variable named by ``api_key_env``, ``OPENAI_API_KEY``); ``base_url``;
    ``max_batch_size`` and ``max_batch_tokens`` per request; ``timeout_seconds`` per
    request; ``max_retries``, ``backoff_base_seconds``, ``backoff_max_seconds``.
    """

    def __init__(
        self,
        *,
        model: str = "text-embedding-3-small",
        dimensions: int = 1536,
        api_key: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        base_url: str | None = None,
        max_batch_size: int = MAX_INPUTS_PER_REQUEST,
        max_batch_tokens: int = MAX_TOKENS_PER_REQUEST,
        timeout_seconds: float = 30.0,
        max_retries: int = 3,
        backoff_base_seconds: float = 0.5,
        backoff_max_seconds: float = 20.0,
    ) -> None:
        self._space = EmbeddingSpace(model, dimensions)
        self._provider = provider_label(base_url)
        self._key_env = api_key_env
        self._max_items = max(1, min(max_batch_size, MAX_INPUTS_PER_REQUEST))
        self._max_tokens = max_batch_tokens
        self._timeout = timeout_seconds
        self._retry = RetryPolicy(max_retries, backoff_base_seconds, backoff_max_seconds)
        self._client = openai_client(
            "OpenAI embedder",
            api_key=api_key,
            api_key_env=api_key_env,
            base_url=base_url,
            timeout_seconds=timeout_seconds,
        )

    @property
    def space(self) -> EmbeddingSpace:
        return self._space

    async def aclose(self) -> None:
        """Close the HTTP connections (the container calls this on shutdown)."""
        await self._client.close()

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        spans = batches(texts, self._max_items, self._max_tokens)
        return await embed_in_batches(texts, spans, self._retry, self._request)

    async def _request(self, batch: list[str]) -> Embeddings:
        # base64 (little-endian float32s) is a quarter of the bytes of JSON numbers; a server
        # that answers with numbers anyway is read as well.
        call = self._client.embeddings.with_raw_response.create(
            model=self._space.model,
            input=batch,
            dimensions=self._space.dimension,
            encoding_format="base64",
        )
        site = CallSite(self._provider, self._key_env)
        answer, received = await answered(call, EmbeddingsAnswer, self._timeout, site)
        rows = [row.embedding for row in _in_order(answer.data, received)]
        vectors = unit_vectors(rows, len(batch), self._space, received.fault)
        return Embeddings(vectors=vectors, input_tokens=answer.tokens())


def _in_order(rows: list[EmbeddingRow], received: Received) -> list[EmbeddingRow]:
    """The rows by their ``index``, which must number them 0, 1, 2... (each once)."""
    ordered = sorted(rows, key=lambda row: row.index)
    if [row.index for row in ordered] != list(range(len(ordered))):
        indices = short([row.index for row in rows])
        raise received.fault(f"embedding indices {indices} do not number the rows from 0")
    return ordered
