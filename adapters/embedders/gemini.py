"""Embeddings with Gemini (``gemini-embedding-001``), normalized to unit length.

Gemini normalizes only its full 3072-dimension vectors; truncated ones (``output_
dimensionality`` 768 or 1536) come back with other lengths, and stores compare by dot
product, so every vector is normalized here. Calls are split into requests of at most 100
texts (the ``batchEmbedContents`` limit), each retried on its own, results in input order.

The task type follows the text's role: ``RETRIEVAL_QUERY`` for a search query,
``RETRIEVAL_DOCUMENT`` for a fact, the pairing Google trains its retrieval for. A
``task_type`` set by the user is sent for both roles (``SEMANTIC_SIMILARITY`` makes the
embedder symmetric, as every vector was before roles). The space keeps the model's name:
task types are instructions to one model whose vectors are made to be compared across them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from eden_memory.adapters.gemini_common import PROVIDER, gemini_client, guarded
from eden_memory.adapters.provider_answers import Received
from eden_memory.adapters.providers_common import batches, embed_in_batches
from eden_memory.adapters.vectors import unit_vectors
from eden_memory.adapters.wrappers.retry import RetryPolicy
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ProviderError
from eden_memory.ports.embedder import Embeddings

if TYPE_CHECKING:
    from google.genai import types

MAX_INPUTS_PER_REQUEST = 100
TASK_TYPES = {TextRole.QUERY: "RETRIEVAL_QUERY", TextRole.PASSAGE: "RETRIEVAL_DOCUMENT"}


class GeminiEmbedder:
    """``Embedder`` on the Gemini Developer API.

    Settings: ``model`` and ``output_dimensionality`` (the embedding space; 1536 keeps
    nearly all of the 3072-dimension quality at half the storage); ``task_type`` (None:
    by role, ``RETRIEVAL_QUERY`` and ``RETRIEVAL_DOCUMENT``; a type given is sent for every
    text, queries and facts alike); ``api_key`` (default:
    ``GOOGLE_API_KEY``, then ``GEMINI_API_KEY``); ``base_url``; ``max_batch_size``;
    ``timeout_seconds`` per request; ``max_retries``, ``backoff_base_seconds``,
    ``backoff_max_seconds``.
    """

    def __init__(
        self,
        *,
        model: str = "gemini-embedding-001",
        output_dimensionality: int = 1536,
        task_type: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        max_batch_size: int = MAX_INPUTS_PER_REQUEST,
        timeout_seconds: float = 30.0,
        max_retries: int = 3,
        backoff_base_seconds: float = 0.5,
        backoff_max_seconds: float = 20.0,
    ) -> None:
        self._space = EmbeddingSpace(model, output_dimensionality)
        self._task_type = task_type
        self._max_items = max(1, min(max_batch_size, MAX_INPUTS_PER_REQUEST))
        self._timeout = timeout_seconds
        self._retry = RetryPolicy(max_retries, backoff_base_seconds, backoff_max_seconds)
        self._client = gemini_client(
            "Gemini embedder", api_key=api_key, base_url=base_url, timeout_seconds=timeout_seconds
        )

    @property
    def space(self) -> EmbeddingSpace:
        return self._space

    async def aclose(self) -> None:
        """Close the HTTP connections (the container calls this on shutdown)."""
        await self._client.aio.aclose()

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        spans = batches(texts, self._max_items, None)
        task_type = self._task_type or TASK_TYPES[TextRole(role)]
        request = partial(self._request, task_type=task_type)
        return await embed_in_batches(texts, spans, self._retry, request)

    async def _request(self, batch: list[str], task_type: str) -> Embeddings:
        from google.genai import types

        config = types.EmbedContentConfig(
            output_dimensionality=self._space.dimension, task_type=task_type
        )
        call = self._client.aio.models.embed_content(
            model=self._space.model, contents=list(batch), config=config
        )
        # The SDK reads and validates this answer itself (embed_content gives no raw body):
        # its failures are translated by ``guarded``, the vectors are checked here.
        response = await guarded(call, self._timeout)
        rows = [row.values or [] for row in response.embeddings or []]
        fail = partial(_fault, response)
        vectors = unit_vectors(rows, len(batch), self._space, fail)
        return Embeddings(vectors=vectors, input_tokens=_tokens(response, fail))


def _fault(response: types.EmbedContentResponse, problem: str) -> ProviderError:
    """The error for an answer the SDK read, quoting what it read (it keeps no body)."""
    answer = response.model_dump_json(exclude_none=True, exclude={"sdk_http_response"})
    return Received(PROVIDER, 200, None, answer, "the answer as the SDK read it").fault(problem)


def _tokens(response: types.EmbedContentResponse, fail: Callable[[str], Exception]) -> int:
    """The input tokens, where the SDK has them (google-genai 3.0 has no usage on embedding
    answers, 3.4 has)."""
    usage = getattr(response, "usage_metadata", None)
    tokens = getattr(usage, "prompt_token_count", None) or 0
    if not isinstance(tokens, int) or tokens < 0:
        raise fail(f"a prompt token count of {tokens!r}")
    return tokens
