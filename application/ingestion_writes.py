"""Writing validated facts in batches: what a direct ingestion asks of the store.

Two things keep a call's cost down on a busy machine, where every round trip to a store's
worker thread waits to be scheduled:

* **one round of reads per batch**: the stored hashes of the batch (one look-up per agent
  and user), the ids the host chose (a new id needs no look-up: it is 128 random bits) and,
  on the first batch, the store's embedding space are asked for together;
* **one batch in flight**: a batch is written while the next one is being validated, and
  the writes stay in order (each waits for the one before it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from eden_memory.application.calls import embed
from eden_memory.application.reports import Usage
from eden_memory.application.spaces import require_space
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore


@dataclass(frozen=True)
class Rejected:
    index: int  # position of the item in the input, from 0
    reason: str


@dataclass
class IngestReport:
    added: list[FactId] = field(default_factory=list)
    duplicates: int = 0  # exact duplicates: within the input or of an active stored fact
    rejected: list[Rejected] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)

    @property
    def embedding_calls(self) -> int:
        return self.usage.embedding_calls

    @property
    def received(self) -> int:
        return len(self.added) + self.duplicates + len(self.rejected)


@dataclass(frozen=True)
class Pending:
    index: int  # the item's position in the input
    fact: Fact
    named: bool  # the host chose its id (which may be stored already)


class BatchWriter:
    """Writes batches in order, one in flight while the caller prepares the next."""

    def __init__(self, store: FactStore, embedder: Embedder, report: IngestReport) -> None:
        self._store = store
        self._embedder = embedder
        self._report = report
        self._space_checked = False
        self._in_flight: asyncio.Task[set[str]] | None = None
        self._on_done: Callable[[], None] = _nothing
        self.ids: set[str] = set()  # ids of facts of this call that are or may be stored

    def holds(self, fact_id: str) -> bool:
        """Whether ``fact_id`` is taken by a fact of this call (written or being written)."""
        return fact_id in self.ids

    async def settle(self) -> None:
        """Wait for the batch in flight; the ids it did not store are free again."""
        if self._in_flight is None:
            return
        task, self._in_flight = self._in_flight, None
        self.ids -= await task
        self._on_done()

    async def send(self, batch: list[Pending], on_done: Callable[[], None] = lambda: None) -> None:
        """Start writing ``batch`` once the one before it is written."""
        await self.settle()
        self._in_flight = asyncio.create_task(self._write(batch))
        self._on_done = on_done

    async def finish(self) -> None:
        """Wait for the last batch, and refuse another space even if nothing was written."""
        await self.settle()
        await self._lookups([])

    def abandon(self) -> None:
        """The call failed: stop waiting for the batch in flight (its own error, if it has
        one, is not the one the caller gets)."""
        task, self._in_flight = self._in_flight, None
        if task is None:
            return
        if task.done() and not task.cancelled():
            task.exception()  # retrieved, so asyncio does not report it as lost
        task.cancel()

    async def _write(self, batch: list[Pending]) -> set[str]:
        """Write ``batch`` but for duplicates of stored facts and taken ids; returns the ids
        of the facts not stored (such an id may be given again)."""
        known, taken = await self._lookups(batch)
        report = self._report
        fresh: list[Pending] = []
        for item in batch:
            fact = item.fact
            if (fact.scope, fact.content_hash) in known[(fact.agent_id, fact.user_id)]:
                report.duplicates += 1
            elif fact.id in taken:
                report.rejected.append(Rejected(item.index, f"fact id {fact.id} is already stored"))
            else:
                fresh.append(item)
        if fresh:
            await self._store_fresh([p.fact for p in fresh])
        kept = {p.fact.id for p in fresh}
        return {p.fact.id for p in batch if p.fact.id not in kept}

    async def _store_fresh(self, facts: list[Fact]) -> None:
        vectors = await embed(self._embedder, [f.content for f in facts], TextRole.PASSAGE)
        stored = await self._store.add_facts(facts, vectors)
        for new, kept in zip(facts, stored, strict=True):
            if kept.id == new.id:
                self._report.added.append(kept.id)
            else:  # written meanwhile by someone else: the store kept the one it had
                self._report.duplicates += 1

    async def _lookups(
        self, batch: list[Pending]
    ) -> tuple[dict[tuple[AgentId, UserId | None], set[tuple[Scope, str]]], set[str]]:
        """The batch's stored hashes (per agent and user) and taken ids, asked together;
        with the store's space check on the first call."""
        owners: dict[tuple[AgentId, UserId | None], set[str]] = {}
        for item in batch:
            owners.setdefault((item.fact.agent_id, item.fact.user_id), set()).add(
                item.fact.content_hash
            )
        named = [item.fact.id for item in batch if item.named]
        reads: list[Awaitable[Any]] = [
            self._store.known_hashes(agent, user, hashes)
            for (agent, user), hashes in owners.items()
        ]
        if named:
            reads.append(self._store.get_facts(named))
        if not self._space_checked:
            reads.append(require_space(self._store, self._embedder))
        results = await asyncio.gather(*reads)
        self._space_checked = True
        known = dict(zip(owners, results[: len(owners)], strict=True))
        taken = {f.id for f in results[len(owners)]} if named else set()
        return known, taken


def _nothing() -> None:
    return None
