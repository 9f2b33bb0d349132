"""Replacing the container's ports with objects the caller owns (fakes, shared clients)."""

from __future__ import annotations

from collections.abc import Mapping

from dependency_injector import providers

from eden_memory.container.core import Container
from eden_memory.domain.model_choice import ModelRole
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.stores import Stores
from eden_memory.ports.telemetry import Telemetry


def per_role(llm: LLM | Mapping[ModelRole, LLM]) -> Mapping[ModelRole, LLM]:
    """One LLM for every role, or the caller's own mapping as it is."""
    if isinstance(llm, Mapping):
        return llm
    return {role: llm for role in ModelRole}


def override_ports(
    container: Container,
    *,
    llm: LLM | Mapping[ModelRole, LLM] | None = None,
    store: Stores | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    telemetry: Telemetry | None = None,
    reranker: Reranker | None = None,
) -> None:
    """Override each port given; the others stay as the settings choose them.

    An overridden port is an ``Object`` provider, never a resource, so the container
    neither builds nor closes what it replaces: the caller keeps ownership.
    """
    if llm is not None:
        container.llms.override(providers.Object(per_role(llm)))
    if store is not None:
        container.stores.override(providers.Object(store))
    if embedder is not None:
        container.embedder.override(providers.Object(embedder))
    if clock is not None:
        container.clock.override(providers.Object(clock))
    if telemetry is not None:
        container.telemetry.override(providers.Object(telemetry))
    if reranker is not None:
        container.reranker.override(providers.Object(reranker))
