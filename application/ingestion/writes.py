"""Writing validated facts in batches: what a direct ingestion asks of the store.

Two things keep a call's cost down on a busy machine, where every round trip to a store's
worker thread waits to be scheduled:

* **one round of reads per batch**: the stored hashes of the batch (one look-up per agent
  and user), the ids the host chose (a new id needs no look-up: it is 128 random bits) and
  the facts items say they supersede, and, on the first batch, the store's embedding space
  are asked for together;
* **one batch in flight**: a batch is written while the next one is being validated, and
  the writes stay in order (each waits for the one before it).

A batch's items that supersede something (a ``supersedes`` id or a ``key``) are written after
its other items, in their order, by ``FactStore.add_superseding`` (one write for them all).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from eden_memory.application.calls import embed
from eden_memory.application.formation.reports import Usage
from eden_memory.application.spaces import require_space
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope
from eden_memory.domain.supersession import check_named
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore, Superseding


@dataclass(frozen=True)
class Rejected:
    index: int  # position of the item in the input, from 0
    reason: str


@dataclass
class IngestReport:
    added: list[FactId] = field(default_factory=list)
    duplicates: int = 0  # exact duplicates: within the input or of an active stored fact
    superseded: list[FactId] = field(default_factory=list)  # stored facts retired by the call
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
    supersedes: FactId | None = None  # the fact it replaces, if it names one

    @property
    def superseding(self) -> bool:
        return self.supersedes is not None or self.fact.supersede_key is not None


class BatchWriter:
    """Writes batches in order, one in flight while the caller prepares the next."""

    def __init__(
        self, store: FactStore, embedder: Embedder, report: IngestReport, now: datetime
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._report = report
        self._now = now
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
        """Write ``batch`` but for duplicates of stored facts, taken ids and unknown facts
        to supersede; returns the ids of the facts not stored (such an id may be given again)."""
        known, stored = await self._lookups(batch)
        report = self._report
        fresh: dict[FactId, Pending] = {}
        for item in batch:
            fact = item.fact
            if (fact.scope, fact.content_hash) in known[(fact.agent_id, fact.user_id)]:
                report.duplicates += 1
            elif item.named and fact.id in stored:
                report.rejected.append(Rejected(item.index, f"fact id {fact.id} is already stored"))
            elif (refused := _refusal(item, stored, fresh)) is not None:
                report.rejected.append(Rejected(item.index, refused))
            else:
                fresh[fact.id] = item
        if fresh:
            await self._store_fresh(list(fresh.values()))
        return {p.fact.id for p in batch if p.fact.id not in fresh}

    async def _store_fresh(self, items: list[Pending]) -> None:
        """Embed the batch in one call; store the plain facts, then the superseding ones."""
        vectors = await embed(self._embedder, [p.fact.content for p in items], TextRole.PASSAGE)
        pairs = list(zip(items, vectors, strict=True))
        plain = [(p.fact, v) for p, v in pairs if not p.superseding]
        if plain:
            stored = await self._store.add_facts([f for f, _ in plain], [v for _, v in plain])
            self._kept([f for f, _ in plain], stored)
        rest = [Superseding(p.fact, v, p.supersedes) for p, v in pairs if p.superseding]
        if rest:
            done = await self._store.add_superseding(rest, self._now)
            self._kept([r.fact for r in rest], [d.fact for d in done])
            self._report.superseded.extend(i for d in done for i in d.retired_ids)

    def _kept(self, facts: list[Fact], stored: list[Fact]) -> None:
        for new, kept in zip(facts, stored, strict=True):
            if kept.id == new.id:
                self._report.added.append(kept.id)
            else:  # written meanwhile by someone else: the store kept the one it had
                self._report.duplicates += 1

    async def _lookups(
        self, batch: list[Pending]
    ) -> tuple[dict[tuple[AgentId, UserId | None], set[tuple[Scope, str]]], dict[FactId, Fact]]:
        """The batch's stored hashes (per agent and user), and the stored facts of the ids it
        names (its own, and the ones it supersedes), asked together; with the store's space
        check on the first call."""
        owners: dict[tuple[AgentId, UserId | None], set[str]] = {}
        for item in batch:
            owners.setdefault((item.fact.agent_id, item.fact.user_id), set()).add(
                item.fact.content_hash
            )
        named = [item.fact.id for item in batch if item.named]
        named += [item.supersedes for item in batch if item.supersedes is not None]
        reads: list[Awaitable[Any]] = [
            self._store.known_hashes(agent, user, hashes)
            for (agent, user), hashes in owners.items()
        ]
        if named:
            reads.append(self._store.get_facts(list(dict.fromkeys(named))))
        if not self._space_checked:
            reads.append(require_space(self._store, self._embedder))
        results = await asyncio.gather(*reads)
        self._space_checked = True
        known = dict(zip(owners, results[: len(owners)], strict=True))
        stored = {f.id: f for f in results[len(owners)]} if named else {}
        return known, stored


def _refusal(
    item: Pending, stored: dict[FactId, Fact], earlier: dict[FactId, Pending]
) -> str | None:
    """Why ``item`` cannot supersede what it names (stored, or an earlier item of the batch)."""
    if item.supersedes is None:
        return None
    given = earlier.get(item.supersedes)
    named = stored.get(item.supersedes) or (None if given is None else given.fact)
    try:
        check_named(item.fact, item.supersedes, named)
    except InvalidInputError as error:
        return str(error)
    return None


def _nothing() -> None:
    return None
