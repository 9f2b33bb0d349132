"""The answering and judging models: built by the library's container, metered by its meter.

Each is the fast-role LLM of a copy of the settings with its provider (OpenAI, Gemini, or
the local OpenAI-compatible server through ``EDEN_MEMORY_OPENAI_BASE_URL``) and model name
chosen by option, so it gets the adapters' timeouts, retries and concurrency limit like
formation does; nothing here calls an SDK. Every call goes through ``MeteredLLM``, so the
tokens and calls of answering and judging are counted apart (by purpose).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Generic

from eden_memory.config import EdenMemoryConfig, LLMProvider
from eden_memory.container import Container
from eden_memory.container.running import resolved, shutdown
from eden_memory.domain.errors import EdenMemoryError, InvalidLLMOutputError
from eden_memory.ports.llm import LLM, LLMRequest, T


@dataclass(frozen=True)
class QAModel:
    """One model of the harness: a client, the model name it asks for, and what for."""

    llm: LLM
    model: str
    purpose: str  # "answer" or "judge": the key its usage is counted under
    max_output_tokens: int


@dataclass(frozen=True)
class Asked(Generic[T]):
    """What one call gave: its value, or why there is none, and how long it took."""

    value: T | None
    error: str
    seconds: float


@asynccontextmanager
async def configured_llm(config: EdenMemoryConfig, provider: LLMProvider) -> AsyncIterator[LLM]:
    """The LLM the container builds for ``provider`` with these settings, closed afterwards."""
    if provider == "none":
        raise SystemExit(
            "no LLM configured for answering or judging: set EDEN_MEMORY_LLM_PROVIDER "
            "or --answer-provider / --judge-provider (see the module's docstring)"
        )
    container = Container(config=config.model_copy(update={"llm_provider_fast": provider}))
    try:
        yield await resolved(container.llm_fast())
    finally:
        await shutdown(container)


async def ask(model: QAModel, system: str, prompt: str, schema: type[T]) -> Asked[T]:
    """One structured call, asked once more on an unusable answer (as formation does); a
    provider failure is an error of this question, not of the run."""
    request = LLMRequest(
        model.model, system, prompt, model.purpose, max_output_tokens=model.max_output_tokens
    )
    started = time.perf_counter()
    error = ""
    for _ in range(2):
        try:
            result = await model.llm.generate(request, schema)
        except InvalidLLMOutputError as failure:
            error = f"{type(failure).__name__}: {failure}"
            continue
        except EdenMemoryError as failure:
            error = f"{type(failure).__name__}: {failure}"
            break
        return Asked(result.value, "", time.perf_counter() - started)
    return Asked(None, error, time.perf_counter() - started)
