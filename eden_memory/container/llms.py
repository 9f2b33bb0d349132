"""The LLM adapters as the container builds them: one client per provider, shared by roles.

Each role (fast, reflection free, reflection premium) picks its provider by setting; roles
on the same provider share one adapter, hence one HTTP client and one concurrency limit.
Retries live inside the adapters (``provider_max_retries``); nothing here retries again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing

from eden_memory.adapters.wrappers.limits import LimitedLLM
from eden_memory.config import EdenMemoryConfig, LLMProvider
from eden_memory.container.retries import retries
from eden_memory.domain.errors import ConfigurationError
from eden_memory.domain.model_choice import ModelRole
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult, T


class UnconfiguredLLM:
    """Stands in when no provider is configured: reading memory works, forming it says why not."""

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        raise ConfigurationError(
            f"{request.purpose} needs an LLM: set EDEN_MEMORY_LLM_PROVIDER (openai or gemini) "
            "or pass llm= to open_memory"
        )


def role_provider(config: EdenMemoryConfig, role: ModelRole) -> LLMProvider:
    return config.provider_for(role)


def by_role(fast: LLM, reflection_free: LLM, reflection_premium: LLM) -> Mapping[ModelRole, LLM]:
    """The mapping ``MemoryService`` takes: one LLM per role."""
    return {
        ModelRole.FAST: fast,
        ModelRole.REFLECTION_FREE: reflection_free,
        ModelRole.REFLECTION_PREMIUM: reflection_premium,
    }


def llm_limit(config: EdenMemoryConfig) -> asyncio.Semaphore | None:
    """The service's one cap on LLM calls in flight, shared by every role (None: no cap)."""
    limit = config.llm_concurrency()
    return None if limit is None else asyncio.Semaphore(limit)


def limited(llm: LLM, limit: asyncio.Semaphore | None) -> LLM:
    return llm if limit is None else LimitedLLM(llm, limit)


async def openai_llm(config: EdenMemoryConfig) -> AsyncIterator[LLM]:
    from eden_memory.adapters.llms.openai import OpenAILLM

    async with aclosing(
        OpenAILLM(
            api=config.openai_api,
            schema_mode=config.openai_schema_mode,
            temperature=config.llm_temperature_value(),
            base_url=config.openai_base_url,
            timeout_seconds=config.llm_timeout("openai"),
            **retries(config),
        )
    ) as llm:
        yield llm


async def gemini_llm(config: EdenMemoryConfig) -> AsyncIterator[LLM]:
    from eden_memory.adapters.llms.gemini import GeminiLLM

    async with aclosing(
        GeminiLLM(
            temperature=config.llm_temperature_value(),
            base_url=config.gemini_base_url,
            timeout_seconds=config.llm_timeout("gemini"),
            **retries(config),
        )
    ) as llm:
        yield llm
