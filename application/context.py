"""Context assembly, the hot path: the memory XML for a prompt, cached per session.

A cached context is served for ``cache_ttl_seconds`` unless the memory it was built from
changed: every change, made in this process or another, moves the store's revision counter
of the keys it touched, and each prompt reads those counters (one small read) before serving
from the cache. Nothing is invalidated by hand (``tests/application/test_context_freshness``).
The cache holds at most ``cache_max_entries`` contexts and none past its TTL (see
``bounded_cache``), so serving many sessions for hours keeps memory flat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from eden_memory.application.bounded_cache import BoundedCache
from eden_memory.domain.fifo import fifo_since, select_fifo
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.scopes import ActiveScopes, ScopeKey
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.xml_context import ScopeMemory, render_memory_context
from eden_memory.ports.clock import Clock
from eden_memory.ports.stores import BufferStore, FactStore, RevisionStore


@dataclass(frozen=True)
class MemoryContext:
    xml: str
    built_at: datetime
    from_cache: bool
    facts: int
    keys: tuple[ScopeKey, ...]


@dataclass(frozen=True)
class _Entry:
    context: MemoryContext
    revisions: dict[ScopeKey, int]
    until: datetime | None  # when a fact it shows expires: no longer true from then on

    def serves(self, now: datetime, ttl: timedelta, revisions: dict[ScopeKey, int]) -> bool:
        fresh = now - self.context.built_at < ttl and (self.until is None or now < self.until)
        return fresh and revisions == self.revisions

    @property
    def cached(self) -> MemoryContext:
        c = self.context
        return MemoryContext(c.xml, c.built_at, True, c.facts, c.keys)


class ContextAssembler:
    def __init__(
        self,
        facts: FactStore,
        buffers: BufferStore,
        revisions: RevisionStore,
        clock: Clock,
        settings: MemorySettings,
    ) -> None:
        self._facts = facts
        self._buffers = buffers
        self._revisions = revisions
        self._clock = clock
        self._settings = settings
        c = settings.context
        ttl = timedelta(seconds=c.cache_ttl_seconds)
        self.cache: BoundedCache[tuple[object, ...], _Entry] = BoundedCache(
            c.cache_max_entries, ttl
        )

    async def context(self, scopes: ActiveScopes, refresh: bool = False) -> MemoryContext:
        """The memory context for these scopes, from cache when it is still true."""
        cache_key = (scopes.agent_id, scopes.session_id, scopes.user_id, scopes.scopes)
        now = self._clock.now()
        entry = None if refresh else self.cache.get(cache_key, now)
        keys = scopes.keys()
        # Read before building, so a change that lands meanwhile is seen by the next call.
        revisions = await self._revisions.revisions(keys)
        if entry is not None and entry.serves(now, self.cache.ttl, revisions):
            return entry.cached
        context, until = await self._build(scopes, now)
        self.cache.put(cache_key, _Entry(context, revisions, until), now)
        return context

    async def _build(
        self, scopes: ActiveScopes, now: datetime
    ) -> tuple[MemoryContext, datetime | None]:
        keys = scopes.keys()
        blobs, buffered, facts = await asyncio.gather(
            self._buffers.get_consolidated(keys),
            self._buffers.unabsorbed(keys),
            self._fifo(scopes, now),
        )
        sections = [_section(key, blobs, buffered) for key in keys]
        xml = render_memory_context(sections, facts, now)
        until = min((f.valid_until for f in facts if f.valid_until is not None), default=None)
        return MemoryContext(xml, now, False, len(facts), keys), until

    async def _fifo(self, scopes: ActiveScopes, now: datetime) -> list[Fact]:
        """The FIFO; when expired facts took places in the store's page, a longer page (the
        store does not read ``valid_until``, kept in the fact's record)."""
        s = self._settings.facts
        if not s.fifo_enabled or s.fifo_limit == 0 or scopes.visibility.is_empty:
            return []
        since, limit = fifo_since(now, s), s.fifo_limit
        while True:
            found = await self._facts.recent_facts(scopes.visibility, since, limit)
            # The store narrows by index; the domain's rule decides (and orders) what is shown.
            shown = select_fifo(found, scopes.visibility, now, s)
            if len(found) < limit or len(shown) >= s.fifo_limit:
                return shown
            limit *= 2


def _section(
    key: ScopeKey, blobs: dict[ScopeKey, ConsolidatedMemory], buffered: Sequence[Reflection]
) -> ScopeMemory:
    return ScopeMemory(key.scope, blobs.get(key), [r for r in buffered if r.key == key])
