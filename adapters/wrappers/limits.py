"""Concurrency limits: at most N calls in flight to one provider.

Formation fans out (dedup searches, consolidations of several scopes in parallel) and a
busy host runs many formations at once; without a cap they meet the provider's rate limit
together. Give every wrapper of the same provider the same ``asyncio.Semaphore`` (for
example the fast and the reflection LLM, both on Gemini) so the cap holds per provider,
not per role.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.ports.embedder import Embedder, Embeddings
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult, T


def semaphore(limit: int | asyncio.Semaphore) -> asyncio.Semaphore:
    """A semaphore for ``limit`` concurrent calls, or the shared one given."""
    if isinstance(limit, asyncio.Semaphore):
        return limit
    if limit < 1:
        raise ValueError(f"a concurrency limit must be at least 1, got {limit}")
    return asyncio.Semaphore(limit)


class LimitedLLM:
    """Lets at most ``limit`` calls of ``inner`` run at once; the others wait their turn."""

    def __init__(self, inner: LLM, limit: int | asyncio.Semaphore) -> None:
        self._inner = inner
        self._semaphore = semaphore(limit)

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        async with self._semaphore:
            return await self._inner.generate(request, schema)


class LimitedEmbedder:
    """Lets at most ``limit`` calls of ``inner`` run at once; the others wait their turn."""

    def __init__(self, inner: Embedder, limit: int | asyncio.Semaphore) -> None:
        self._inner = inner
        self._semaphore = semaphore(limit)

    @property
    def space(self) -> EmbeddingSpace:
        return self._inner.space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        async with self._semaphore:
            return await self._inner.embed(texts, role)
