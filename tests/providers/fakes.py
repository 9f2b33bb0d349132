"""Tiny port implementations for the wrapper tests: they fail on cue and track concurrency."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable, Sequence

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.ports.embedder import Embeddings
from eden_memory.ports.llm import LLMRequest, LLMResult, T


class InFlight:
    """Counts calls running at the same time and remembers the most seen at once."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0

    async def hold(self, seconds: float) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            await asyncio.sleep(seconds)
        finally:
            self.now -= 1


class FlakyLLM:
    """Raises the queued errors first, then answers ``answer`` with fixed token counts."""

    def __init__(
        self,
        answer: dict[str, object],
        failures: Iterable[Exception] = (),
        hold: float = 0.0,
        in_flight: InFlight | None = None,
    ) -> None:
        self.answer = answer
        self.failures = deque(failures)
        self.calls = 0
        self.in_flight = in_flight or InFlight()
        self._hold = hold

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        self.calls += 1
        await self.in_flight.hold(self._hold)
        if self.failures:
            raise self.failures.popleft()
        return LLMResult(schema.model_validate(self.answer), request.model, 100, 20)


class FlakyEmbedder:
    """Raises the queued errors first, then returns one unit vector per text."""

    def __init__(self, failures: Iterable[Exception] = (), hold: float = 0.0) -> None:
        self.failures = deque(failures)
        self.calls = 0
        self.in_flight = InFlight()
        self._hold = hold

    @property
    def space(self) -> EmbeddingSpace:
        return EmbeddingSpace("flaky-embedding", 2)

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        self.calls += 1
        await self.in_flight.hold(self._hold)
        if self.failures:
            raise self.failures.popleft()
        return Embeddings([[1.0, 0.0] for _ in texts], input_tokens=3 * len(texts))
