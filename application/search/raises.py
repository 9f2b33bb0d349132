"""Raising a query's candidates by their session-mates and by the time the query names, and
lowering them by age when a half-life is set (``domain/decay.py``).

Both raises need to know of each candidate when it was said and in which session: that much
is read here (``FactStore.fact_origins``), before the cut to ``top_k``, and the search then
reads whole facts of its winners only (of ``top_k`` candidates or fewer, whole facts at
once). The rules are the domain's (``domain/session_context.py``, ``domain/temporal.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.application.search.hits import visible_facts
from eden_memory.domain.decay import decayed
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import FusedHit, merge_queries
from eden_memory.domain.scopes import FactVisibility
from eden_memory.domain.session_context import raise_by_session, session_bonuses
from eden_memory.domain.settings import SearchSettings
from eden_memory.domain.temporal import TimeFilter, boost_in_time, time_named
from eden_memory.ports.stores import FactOrigin, FactReads


@dataclass(frozen=True)
class Raised:
    """One query's candidates after the raises, and what each raise did."""

    hits: list[FusedHit]
    bonuses: dict[str, float]  # fact id: score gained from its session-mates
    named: TimeFilter | None  # the time the query names, when it raised anything
    factor: float


async def raise_candidates(
    store: FactReads,
    s: SearchSettings,
    now: datetime,
    queries: Sequence[str],
    lists: list[list[FusedHit]],
    visibility: FactVisibility,
    top_k: int,
) -> tuple[list[Raised], dict[FactId, Fact]]:
    """Each query's list raised, and the candidates' whole facts when they were read whole."""
    named = [time_named(q, now) for q in queries]
    factors = [_factor(n, s) for n in named]
    ids = list(dict.fromkeys(FactId(h.id) for f in lists for h in f))
    if not ids or (s.session_weight <= 0 and not any(factors) and s.age_half_life_days is None):
        return [Raised(f, {}, None, 0.0) for f in lists], {}
    origins, facts = await _origins(store, ids, lists, visibility, top_k, now)
    sessions = {str(i): o.session_id for i, o in origins.items() if o.session_id}
    said = {str(i): o.formed_at for i, o in origins.items()}
    raised = []
    for hits, n, factor in zip(lists, named, factors, strict=True):
        bonuses = session_bonuses(hits, sessions, s.session_weight)
        out = raise_by_session(hits, bonuses) if bonuses else hits
        if n is not None and factor > 0:
            out = boost_in_time(out, n, said, factor)
        if s.age_half_life_days is not None:
            out = decayed(out, said, now, s.age_half_life_days)
        raised.append(Raised(out, bonuses, n if factor > 0 else None, factor))
    return raised, facts


async def _origins(
    store: FactReads,
    ids: list[FactId],
    lists: list[list[FusedHit]],
    visibility: FactVisibility,
    top_k: int,
    now: datetime,
) -> tuple[dict[FactId, FactOrigin], dict[FactId, Fact]]:
    """Up to ``top_k`` candidates, all of which may be returned, are read whole at once (one
    read, not two). More are read by origin, and at the same time the ``top_k`` that win
    unless a raise reorders them are read whole: the two reads share one wait (a round trip
    to a server, a hop to the embedded store's reader), and the search reads whole only the
    winners a raise brought in."""
    if len(ids) <= top_k:
        facts = await visible_facts(store, ids, visibility, now)
        return {i: FactOrigin(f.formed_at, f.source_session_id) for i, f in facts.items()}, facts
    likely = [FactId(h.id) for h in merge_queries([hits[:top_k] for hits in lists])[:top_k]]
    return await asyncio.gather(
        store.fact_origins(ids, visibility), visible_facts(store, likely, visibility, now)
    )


def _factor(named: TimeFilter | None, s: SearchSettings) -> float:
    if named is None:
        return 0.0
    return s.day_boost if named.day else s.time_boost
