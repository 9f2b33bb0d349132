"""The LLM adapters as the container builds them: one client per provider, shared by roles.

Each role (fast, reflection free, reflection premium) picks its provider by setting; roles
on the same provider share one adapter, hence one HTTP client and one concurrency limit.
Retries live inside the adapters (``provider_max_retries``); nothing here retries again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing

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


async def openai_llm(config: EdenMemoryConfig) -> AsyncIterator[LLM]:
    from eden_memory.adapters.llms.openai import OpenAILLM

    async with aclosing(
        OpenAILLM(
            api=config.openai_api,
            base_url=config.openai_base_url,
            timeout_seconds=config.llm_timeout_seconds,
            **retries(config),
        )
    ) as llm:
        yield llm


async def gemini_llm(config: EdenMemoryConfig) -> AsyncIterator[LLM]:
    from eden_memory.adapters.llms.gemini import GeminiLLM

    async with aclosing(
        GeminiLLM(
            base_url=config.gemini_base_url,
            timeout_seconds=config.llm_timeout_seconds,
            **retries(config),
        )
    ) as llm:
        yield llm
