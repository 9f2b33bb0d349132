"""The FIFO: the recent facts that ride in every prompt."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from eden_memory.domain.models.facts import Fact
from eden_memory.domain.scopes import FactVisibility
from eden_memory.domain.settings import FactSettings


def fifo_since(now: datetime, settings: FactSettings) -> datetime:
    """The oldest ``formed_at`` the FIFO still shows."""
    return now - timedelta(hours=settings.fifo_max_age_hours)


def select_fifo(
    facts: Iterable[Fact], visibility: FactVisibility, now: datetime, settings: FactSettings
) -> list[Fact]:
    """Visible active facts formed within the max age and not expired (``Fact.expired``),
    newest first, at most ``fifo_limit``."""
    if not settings.fifo_enabled or settings.fifo_limit == 0:
        return []
    since = fifo_since(now, settings)
    chosen = [
        f
        for f in facts
        if f.is_active
        and f.formed_at >= since
        and not f.expired(now)
        and visibility.admits(f.agent_id, f.scope, f.user_id)
    ]
    chosen.sort(key=newest_first)
    return chosen[: settings.fifo_limit]


def newest_first(fact: Fact) -> tuple[float, str]:
    """Sort key: most recent ``formed_at`` first, then id for a stable order."""
    return newest_first_at(fact.formed_at, fact.id)


def newest_first_at(formed_at: datetime, fact_id: str) -> tuple[float, str]:
    """``newest_first`` of a fact known by its time and id (a listing's position)."""
    return (-formed_at.timestamp(), fact_id)
