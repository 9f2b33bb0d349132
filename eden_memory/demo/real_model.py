"""The demo on a configured provider: the adapter the container would build, and who answered.

The demo passes the model in itself (as a host may), so it wraps the configured adapter in
the same concurrency cap the container applies and in ``AnsweredBy``, which keeps the
``model`` field of every answer: the demo prints which model actually answered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from eden_memory.config import EdenMemoryConfig
from eden_memory.container.llms import gemini_llm, limited, llm_limit, openai_llm
from eden_memory.domain.errors import ConfigurationError
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult, T


class AnsweredBy:
    """Passes calls to ``inner``; counts answers per answering model, and their tokens."""

    def __init__(self, inner: LLM) -> None:
        self._inner = inner
        self.models: Counter[str] = Counter()
        self.input_tokens = 0
        self.output_tokens = 0

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        result = await self._inner.generate(request, schema)
        self.models[result.model] += 1
        self.input_tokens += result.input_tokens
        self.output_tokens += result.output_tokens
        return result


@asynccontextmanager
async def provider_llm(config: EdenMemoryConfig, provider: str) -> AsyncIterator[AnsweredBy]:
    """The configured ``provider``'s LLM, capped like the container caps it, then closed."""
    if config.llm_provider != provider:
        raise ConfigurationError(
            f"--llm {provider} needs EDEN_MEMORY_LLM_PROVIDER={provider} and its settings "
            "(for a model on this machine, `eden-memory local-llm` serves one and prints them)"
        )
    builder = openai_llm if provider == "openai" else gemini_llm
    async with asynccontextmanager(builder)(config) as llm:
        yield AnsweredBy(limited(llm, llm_limit(config)))


def describe(config: EdenMemoryConfig, provider: str) -> str:
    """One line on where the demo's LLM calls go (``provider``: the configured one)."""
    chosen = config.llm_provider
    models = config.memory.models
    where = config.openai_base_url if provider == "openai" else config.gemini_base_url
    how = (
        f"{config.openai_api} API, schema as {config.openai_schema_mode}, "
        if provider == "openai"
        else ""
    )
    cap = config.llm_concurrency()
    return (
        f"LLM: [bold]{provider}[/] at {where or 'the provider API'} ({how}temperature "
        f"{config.llm_temperature}, timeout {config.llm_timeout(chosen):g} s, "
        f"{'no cap on' if cap is None else cap} concurrent call(s)); models {models.fast}, "
        f"{models.reflection_free}, {models.reflection_premium}"
    )
