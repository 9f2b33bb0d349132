"""Stats and consolidation status per scope, and what a context leaves out: what a memory
dashboard shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from eden_memory.domain.consolidation import consolidation_due
from eden_memory.domain.fact_window import FactWindow
from eden_memory.domain.scopes import ActiveScopes, Scope, ScopeKey
from eden_memory.domain.settings import FactSettings, MemorySettings
from eden_memory.domain.text import word_count
from eden_memory.ports.stores import BufferStore, FactReads


@dataclass(frozen=True)
class ScopeStats:
    key: ScopeKey
    consolidated_words: int
    word_limit: int
    consolidated_version: int
    last_consolidated_at: datetime | None
    buffered_reflections: int
    buffered_words: int
    latest_reflection_at: datetime | None
    active_facts: int | None  # None for session scope: facts are never session-scoped


@dataclass(frozen=True)
class ConsolidationStatus:
    key: ScopeKey
    buffered: int
    threshold: int
    due: bool


async def scope_stats(
    facts: FactReads, buffers: BufferStore, settings: MemorySettings, keys: list[ScopeKey]
) -> list[ScopeStats]:
    blobs = await buffers.get_consolidated(keys)
    buffered = await buffers.unabsorbed(keys)
    out = []
    for key in keys:
        mine = [r for r in buffered if r.key == key]
        blob = blobs.get(key)
        active = None if key.scope is Scope.SESSION else await facts.count_facts(key)
        out.append(
            ScopeStats(
                key=key,
                consolidated_words=word_count(blob.content) if blob else 0,
                word_limit=settings.consolidation.word_limits.of(key.scope),
                consolidated_version=blob.version if blob else 0,
                last_consolidated_at=blob.last_consolidated_at if blob else None,
                buffered_reflections=len(mine),
                buffered_words=sum(word_count(r.content) for r in mine),
                latest_reflection_at=max((r.formed_at for r in mine), default=None),
                active_facts=active,
            )
        )
    return out


async def consolidation_status(
    buffers: BufferStore, settings: MemorySettings, keys: list[ScopeKey]
) -> list[ConsolidationStatus]:
    buffered = await buffers.unabsorbed(keys)
    out = []
    for key in keys:
        count = sum(1 for r in buffered if r.key == key)
        threshold = settings.consolidation.thresholds.of(key.scope)
        out.append(
            ConsolidationStatus(
                key, count, threshold, consolidation_due(count, key, settings.consolidation)
            )
        )
    return out


async def fact_window(
    facts: FactReads, scopes: ActiveScopes, shown: int, settings: FactSettings
) -> FactWindow:
    """The facts ``scopes`` may see (one count per fact scope) against the ``shown`` ones."""
    keys = [scopes.key(s) for s in (Scope.AGENT, Scope.USER) if s in scopes.fact_scopes]
    visible = sum([await facts.count_facts(k) for k in keys])
    return FactWindow(shown, visible, settings)
