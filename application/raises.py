"""Raising a query's candidates by their session-mates and by the time the query names.

Both raises need to know of each candidate when it was said and in which session: that much
is read here (``FactStore.fact_origins``), before the cut to ``top_k``; the search then reads
whole facts of its winners only. The rules are the domain's (``domain/session_context.py``,
``domain/temporal.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.domain.session_context import raise_by_session, session_bonuses
from eden_memory.domain.settings import SearchSettings
from eden_memory.domain.temporal import TimeFilter, boost_in_time, time_named
from eden_memory.ports.stores import FactStore


@dataclass(frozen=True)
class Raised:
    """One query's candidates after the raises, and what each raise did."""

    hits: list[FusedHit]
    bonuses: dict[str, float]  # fact id: score gained from its session-mates
    named: TimeFilter | None  # the time the query names, when it raised anything
    factor: float


async def raise_candidates(
    store: FactStore,
    s: SearchSettings,
    now: datetime,
    queries: Sequence[str],
    lists: list[list[FusedHit]],
    visibility: FactVisibility,
) -> list[Raised]:
    """Each query's list raised."""
    named = [time_named(q, now) for q in queries]
    factors = [_factor(n, s) for n in named]
    ids = list(dict.fromkeys(FactId(h.id) for f in lists for h in f))
    if not ids or (s.session_weight <= 0 and not any(factors)):
        return [Raised(f, {}, None, 0.0) for f in lists]
    origins = await store.fact_origins(ids, visibility)
    sessions = {str(i): o.session_id for i, o in origins.items() if o.session_id}
    said = {str(i): o.formed_at for i, o in origins.items()}
    raised = []
    for hits, n, factor in zip(lists, named, factors, strict=True):
        bonuses = session_bonuses(hits, sessions, s.session_weight)
        out = raise_by_session(hits, bonuses) if bonuses else hits
        if n is not None and factor > 0:
            out = boost_in_time(out, n, said, factor)
        raised.append(Raised(out, bonuses, n if factor > 0 else None, factor))
    return raised


def _factor(named: TimeFilter | None, s: SearchSettings) -> float:
    if named is None:
        return 0.0
    return s.day_boost if named.day else s.time_boost
