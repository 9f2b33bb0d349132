"""Fault injection at any port call: every call of the store, embedder, LLM and clock is
numbered, and the call numbered ``at`` fails once, before it takes effect or after (the work
is done, the reply is lost).

The wrappers forward everything else to the adapter they wrap, so the same run can be
replayed against any store with a fault at each call in turn.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any, cast

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import StoreUnavailableError
from eden_memory.ports.embedder import Embedder, Embeddings
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult, T
from eden_memory.ports.stores import Stores


class InjectedFault(StoreUnavailableError):
    """The failure the plan injects (an ``EdenMemoryError``, as adapters translate theirs)."""


class FaultPlan:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.at: int | None = None
        self.after = False
        self.fired: str | None = None

    def arm(self, at: int, *, after: bool) -> None:
        """Count calls from zero again and fail the one numbered ``at``."""
        self.calls, self.at, self.after, self.fired = [], at, after, None

    def _due(self, name: str) -> bool:
        number = len(self.calls)
        self.calls.append(name)
        if number != self.at:
            return False
        self.at = None
        self.fired = f"{name} (call {number}, {'after' if self.after else 'before'} it)"
        return True

    async def call(self, name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._due(name):
            return await fn(*args, **kwargs)
        if self.after:
            await fn(*args, **kwargs)
        raise InjectedFault(f"injected fault at {self.fired}")

    def call_sync(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        if not self._due(name):
            return fn(*args)
        if self.after:
            fn(*args)
        raise InjectedFault(f"injected fault at {self.fired}")


class FaultyStore:
    """Any store, its async methods numbered by the plan."""

    def __init__(self, inner: Any, plan: FaultPlan) -> None:
        self._inner, self._plan = inner, plan

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._inner, name)
        if not inspect.iscoroutinefunction(attribute):
            return attribute

        async def numbered(*args: Any, **kwargs: Any) -> Any:
            return await self._plan.call(f"store.{name}", attribute, *args, **kwargs)

        return numbered


def faulty_stores(inner: Stores, plan: FaultPlan) -> Stores:
    """Every part of a store, its async methods numbered by one plan."""
    return wrapped_stores(inner, lambda part: FaultyStore(part, plan))


def wrapped_stores(inner: Stores, wrap: Callable[[object], object]) -> Stores:
    """Every part of ``inner`` wrapped once: one wrapper serves each concern's ports, as one
    adapter object does."""
    facts, sessions, buffers = (
        cast(Any, wrap(p)) for p in (inner.facts, inner.sessions, inner.buffers)
    )
    return Stores(
        facts=facts,
        fact_reads=facts,
        fact_records=facts,
        ranking=cast(Any, wrap(inner.ranking)),
        sessions=sessions,
        session_records=sessions,
        buffers=buffers,
        note_records=buffers,
        revisions=cast(Any, wrap(inner.revisions)),
        contexts=cast(Any, wrap(inner.contexts)),
        close=inner.close,
    )


class FaultyEmbedder:
    def __init__(self, inner: Embedder, plan: FaultPlan) -> None:
        self._inner, self._plan = inner, plan

    @property
    def space(self) -> EmbeddingSpace:
        return self._inner.space

    async def embed(self, texts: Any, role: TextRole) -> Embeddings:
        call = self._inner.embed
        result: Embeddings = await self._plan.call("embedder.embed", call, texts, role)
        return result


class FaultyLLM:
    def __init__(self, inner: LLM, plan: FaultPlan) -> None:
        self._inner, self._plan = inner, plan

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        name = f"llm.{request.purpose}"
        result: LLMResult[T] = await self._plan.call(name, self._inner.generate, request, schema)
        return result


class FaultyClock:
    def __init__(self, inner: Any, plan: FaultPlan) -> None:
        self._inner, self._plan = inner, plan

    def now(self) -> datetime:
        now: datetime = self._plan.call_sync("clock.now", self._inner.now)
        return now

    def __getattr__(self, name: str) -> Any:  # advance(), set() of the fake clock
        return getattr(self._inner, name)


def facts_replaced(stores: Stores, facts: object) -> Stores:
    """``stores`` with ``facts`` (a wrapper that counts or bends the calls) as every fact port,
    as the adapters bundle one object for them all."""
    part = cast(Any, facts)
    return replace(stores, facts=part, fact_reads=part, fact_records=part)
