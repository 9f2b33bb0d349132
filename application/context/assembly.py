"""Context assembly, the hot path: the memory XML for a prompt, cached per session.

A cached context is served for ``cache_ttl_seconds`` unless the memory it was built from
changed: every change, made in this process or another, moves the store's revision counter
of the keys it touched, and each prompt reads those counters (one small read) before serving
from the cache. Nothing is invalidated by hand (``tests/application/test_context_freshness``).

Who may read comes first: the session's stored users are read beside the counters, and a
conversation whose turn the store would refuse gets ``SessionUsersError`` before either level
is asked (``application/context/session_access.py``), so no cached context reaches another user.

Two levels, one rule. The process's own cache (``bounded_cache``: at most
``cache_max_entries`` contexts, none past its TTL) is asked first; then the copy kept with
the session in the store (``ContextStore``, when ``cache_shared``), so a context one worker
built is served by the others. Either is served only when it is younger than the TTL, shows
no expired fact and was built from the revisions the store holds now.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from eden_memory.application.context.bounded_cache import BoundedCache
from eden_memory.application.context.session_access import reader_checked
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.fifo import fifo_since, select_fifo
from eden_memory.domain.identity_memo import IdentityMemo
from eden_memory.domain.ids import UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.scopes import ActiveScopes, Scope, ScopeKey
from eden_memory.domain.settings import FactSettings, MemorySettings
from eden_memory.domain.xml_context import ScopeMemory, render_memory_context
from eden_memory.ports.clock import Clock
from eden_memory.ports.stores import (
    BufferStore,
    ContextStore,
    FactReads,
    RevisionStore,
    SessionStore,
)
from eden_memory.ports.stores.contexts import StoredContext
from eden_memory.ports.telemetry import Telemetry


@dataclass(frozen=True)
class MemoryContext:
    xml: str
    built_at: datetime
    from_cache: bool
    facts: int
    keys: tuple[ScopeKey, ...]
    # Which level served it: "process", "store", or "" when it was built for this call.
    cached_in: str = ""


@dataclass(frozen=True)
class ContextLabels:
    """What the host's call adds to the memory it shows: the sole user's name, and the
    agent's memory instructions (empty: not shown)."""

    user_name: str | None = None
    instructions: str = ""


def serves(
    stored: StoredContext, now: datetime, ttl: timedelta, revisions: tuple[int, ...]
) -> bool:
    """The freshness rule of both levels: within the TTL, no shown fact expired, and built
    from the revisions the store holds now."""
    fresh = now - stored.built_at < ttl and (stored.until is None or now < stored.until)
    return fresh and revisions == stored.revisions


def recipe(scopes: ActiveScopes, fifo: FactSettings, labels: ContextLabels) -> str:
    """What, besides the memory and the scopes' keys, decides the XML: the subsystem
    switches, the agent's FIFO settings and the labels. A stored context made another way is
    another variant (a worker may be told another user name, or run other settings).

    The text ``json.dumps([facts on, reflections on, fifo.model_dump(mode="json"), user
    name, instructions], sort_keys=True)`` writes, put together by hand (the same text:
    ``tests/application/test_context_recipe``): each prompt that misses the process's cache
    asks for it, and that call builds an encoder and dumps the settings, several times the
    cost of this."""
    name = "null" if labels.user_name is None else json.dumps(labels.user_name)
    flags = f"{_JSON_BOOL[scopes.facts_enabled]}, {_JSON_BOOL[scopes.reflections_enabled]}"
    return f"[{flags}, {_fifo_json(fifo)}, {name}, {json.dumps(labels.instructions)}]"


_JSON_BOOL = {True: "true", False: "false"}
_FIFO_JSON: IdentityMemo[str] = IdentityMemo()


def _fifo_json(fifo: FactSettings) -> str:
    """``fifo`` as JSON with sorted keys, once per settings object: an agent's effective
    settings are one object (``AgentSettings.over`` resolves them by identity) and a frozen
    model's dump does not change."""
    return _FIFO_JSON.get((fifo,), lambda: json.dumps(fifo.model_dump(mode="json"), sort_keys=True))


def _served(stored: StoredContext, keys: tuple[ScopeKey, ...], level: str) -> MemoryContext:
    return MemoryContext(stored.xml, stored.built_at, True, stored.facts, keys, level)


class ContextAssembler:
    def __init__(
        self,
        facts: FactReads,
        buffers: BufferStore,
        revisions: RevisionStore,
        contexts: ContextStore,
        sessions: SessionStore,
        clock: Clock,
        settings: MemorySettings,
        spawn: Callable[[Coroutine[Any, Any, None]], object] | None = None,
        telemetry: Telemetry = NO_TELEMETRY,
    ) -> None:
        self._facts = facts
        self._buffers = buffers
        self._revisions = revisions
        self._contexts = contexts
        self._sessions = sessions
        self._clock = clock
        self._settings = settings
        # Saving a built context for the other workers is off the caller's path when the
        # service gives a way (its background tasks, drained on close).
        self._spawn = spawn
        self._telemetry = telemetry
        c = settings.context
        ttl = timedelta(seconds=c.cache_ttl_seconds)
        self.cache: BoundedCache[tuple[object, ...], StoredContext] = BoundedCache(
            c.cache_max_entries, ttl
        )
        # A TTL or a size of 0 turns caching off, both levels (as before there were two).
        self._shared = c.cache_shared and ttl > timedelta(0) and c.cache_max_entries > 0

    async def context(
        self,
        scopes: ActiveScopes,
        refresh: bool = False,
        facts: FactSettings | None = None,
        labels: ContextLabels = ContextLabels(),
        *,
        users: Sequence[UserId],
    ) -> MemoryContext:
        """The memory context for these scopes, from a cache level when it is still true;
        ``facts``: the agent's own FIFO settings (the globals when None); ``users``: the
        conversation's, checked against the session's before anything is served."""
        with self._telemetry.operation("eden_memory.context", {}) as span:
            fifo = facts or self._settings.facts
            context = await self._context(scopes, refresh, fifo, labels, users)
            span.set("eden_memory.context.cached_in", context.cached_in or "built")
            span.set("eden_memory.context.facts", context.facts)
            span.set("eden_memory.context.chars", len(context.xml))
            return context

    async def _context(
        self,
        scopes: ActiveScopes,
        refresh: bool,
        facts: FactSettings,
        labels: ContextLabels,
        users: Sequence[UserId],
    ) -> MemoryContext:
        cache_key = (scopes, facts, labels)
        now = self._clock.now()
        ttl = self.cache.ttl
        keys = scopes.keys()
        entry = None if refresh else self.cache.get(cache_key, now)
        # Read before building, so a change that lands meanwhile is seen by the next call.
        # The session's users beside the counters (one wait): SessionUsersError before any
        # level is asked for a conversation the session's turns refuse.
        counters, _ = await asyncio.gather(
            self._revisions.revisions(keys), reader_checked(self._sessions, scopes, users)
        )
        revisions = tuple(counters[k] for k in keys)
        if entry is not None and serves(entry, now, ttl, revisions):
            return _served(entry, keys, "process")
        if self._shared and not refresh:
            stored = await self._contexts.load_context(scopes, recipe(scopes, facts, labels))
            if stored is not None and serves(stored, now, ttl, revisions):
                self.cache.put(cache_key, stored, now)
                return _served(stored, keys, "store")
        built = await self._build(scopes, now, revisions, facts, labels)
        self.cache.put(cache_key, built, now)
        if self._shared:
            made = recipe(scopes, facts, labels)
            saving = self._contexts.save_context(scopes, built, now - ttl, made)
            if self._spawn is None:
                await saving
            else:
                self._spawn(saving)
        return MemoryContext(built.xml, now, False, built.facts, keys)

    async def _build(
        self,
        scopes: ActiveScopes,
        now: datetime,
        revisions: tuple[int, ...],
        fifo: FactSettings,
        labels: ContextLabels,
    ) -> StoredContext:
        keys = scopes.reflection_keys()
        blobs, buffered, facts = await asyncio.gather(
            self._buffers.get_consolidated(keys),
            self._buffers.unabsorbed(keys),
            self._fifo(scopes, now, fifo),
        )
        sections = [_section(key, blobs, buffered, labels) for key in keys]
        xml = render_memory_context(sections, facts, now)
        until = min((f.valid_until for f in facts if f.valid_until is not None), default=None)
        return StoredContext(xml, now, len(facts), revisions, until)

    async def _fifo(self, scopes: ActiveScopes, now: datetime, s: FactSettings) -> list[Fact]:
        """The FIFO; when expired facts took places in the store's page, a longer page (the
        store does not read ``valid_until``, kept in the fact's record)."""
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
    key: ScopeKey,
    blobs: dict[ScopeKey, ConsolidatedMemory],
    buffered: Sequence[Reflection],
    labels: ContextLabels,
) -> ScopeMemory:
    return ScopeMemory(
        key.scope,
        blobs.get(key),
        [r for r in buffered if r.key == key],
        name=labels.user_name if key.scope is Scope.USER else None,
        instructions=labels.instructions if key.scope is Scope.AGENT else "",
    )
