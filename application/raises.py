"""Raising a query's candidates by their session-mates and by the time the query names.

Both raises need the candidates' facts (their session, when they were said): they are read
once here, before the cut to ``top_k``, and the search returns its winners from that read.
The rules are the domain's (``domain/session_context.py``, ``domain/temporal.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.application.hits import visible_facts
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
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
) -> tuple[list[Raised], dict[FactId, Fact]]:
    """Each query's list raised, and the candidates' facts (empty when nothing needed them)."""
    named = [time_named(q, now) for q in queries]
    factors = [_factor(n, s) for n in named]
    if s.session_weight <= 0 and not any(factors):
        return [Raised(f, {}, None, 0.0) for f in lists], {}
    ids = [FactId(h.id) for f in lists for h in f]
    facts = await visible_facts(store, ids, visibility)
    sessions = {str(i): f.source_session_id for i, f in facts.items() if f.source_session_id}
    said = {str(i): f.formed_at for i, f in facts.items()}
    raised = []
    for hits, n, factor in zip(lists, named, factors, strict=True):
        bonuses = session_bonuses(hits, sessions, s.session_weight)
        out = raise_by_session(hits, bonuses) if bonuses else hits
        if n is not None and factor > 0:
            out = boost_in_time(out, n, said, factor)
        raised.append(Raised(out, bonuses, n if factor > 0 else None, factor))
    return raised, facts


def _factor(named: TimeFilter | None, s: SearchSettings) -> float:
    if named is None:
        return 0.0
    return s.day_boost if named.day else s.time_boost


def unraised(
    raised: Sequence[Sequence[FusedHit]], plain: Sequence[Sequence[FusedHit]]
) -> dict[str, float]:
    """Each fact's score before the raises, in the query whose raised score ``merge_queries``
    keeps (the best; of equal ones, the first)."""
    best: dict[str, tuple[float, float]] = {}
    for hits, before in zip(raised, plain, strict=True):
        scores = {h.id: h.score for h in before}
        for h in hits:
            if h.id not in best or h.score > best[h.id][0]:
                best[h.id] = (h.score, scores.get(h.id, h.score))
    return {doc: base for doc, (_, base) in best.items()}
