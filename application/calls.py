"""Calling the LLM and the embedder: one retry on unusable output, a check on the vectors.

Nothing is counted here: the service's clients are metered (``application.metering``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import InvalidLLMOutputError, ProviderError
from eden_memory.domain.model_choice import ModelRole, model_for
from eden_memory.domain.settings import ModelSettings
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM, LLMRequest, T
from eden_memory.ports.telemetry import Telemetry

R = TypeVar("R")


@dataclass(frozen=True)
class ModelRouter:
    """Which LLM client and which model name serve each role."""

    clients: Mapping[ModelRole, LLM]
    settings: ModelSettings

    @classmethod
    def single(cls, llm: LLM, settings: ModelSettings) -> ModelRouter:
        return cls({role: llm for role in ModelRole}, settings)

    async def ask(
        self,
        role: ModelRole,
        purpose: str,
        system: str,
        prompt: str,
        schema: type[T],
        retries_on_invalid: int = 1,
        model: str | None = None,
    ) -> T:
        """One structured call; an unusable answer is asked again, then raised. ``model``
        names another model than the role's, on the role's client."""
        request = LLMRequest(
            model or model_for(role, self.settings),
            system,
            prompt,
            purpose,
            max_answer_chars=self.settings.max_answer_chars,
        )
        for attempt in range(retries_on_invalid + 1):
            try:
                result = await self.clients[role].generate(request, schema)
            except InvalidLLMOutputError:
                if attempt == retries_on_invalid:
                    raise
                continue
            return result.value
        raise AssertionError("unreachable")  # pragma: no cover


async def ask_usable(
    models: ModelRouter,
    purpose: str,
    prompts: tuple[str, str],
    schema: type[T],
    read: Callable[[T], R],
    refused: tuple[type[Exception], ...],
    what: str,
    *,
    model: str | None = None,
    attempts: int = 2,
) -> R:
    """The fast model's answer to ``prompts`` (system, prompt), as ``read`` makes of it: an
    answer that does not parse, or that ``read`` refuses with one of ``refused``, is asked
    again, ``attempts`` calls in all, then raised naming ``what``."""
    system, prompt = prompts
    unusable: tuple[type[Exception], ...] = (InvalidLLMOutputError, *refused)
    problem = ""
    for _ in range(attempts):
        try:
            answer = await models.ask(
                ModelRole.FAST, purpose, system, prompt, schema, retries_on_invalid=0, model=model
            )
            return read(answer)
        except unusable as error:
            problem = str(error)
    raise InvalidLLMOutputError(f"{what} could not be used: {problem}")


async def embed(embedder: Embedder, texts: Sequence[str], role: TextRole) -> list[list[float]]:
    """The vectors of ``texts``, one each, embedded as ``role`` (facts: ``PASSAGE``)."""
    if not texts:
        return []
    result = await embedder.embed(list(texts), role)
    if len(result.vectors) != len(texts):
        raise ProviderError(
            f"the embedder returned {len(result.vectors)} vectors for {len(texts)} texts"
        )
    return result.vectors


@asynccontextmanager
async def timed(stages: dict[str, float], name: str) -> AsyncIterator[None]:
    """Add the wall time of a block to ``stages[name]``."""
    start = time.perf_counter()
    try:
        yield
    finally:
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - start


@asynccontextmanager
async def stage(telemetry: Telemetry, stages: dict[str, float], name: str) -> AsyncIterator[None]:
    """A formation stage: timed into its report, and reported as ``eden_memory.formation.<name>``
    (its model calls nest under it)."""
    with telemetry.operation(f"eden_memory.formation.{name}", {}):
        async with timed(stages, name):
            yield
