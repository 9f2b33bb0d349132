"""An optional decay of ranking scores by age: a fact one half-life old counts half as much.

Off by default (``SearchSettings.age_half_life_days`` is None): on the questions of LoCoMo,
about events over months, the old fact is as often the answer as the new one, and a decay
strong enough to put the newer of two versions first also buries old answers
(``benchmarks/freshness.py`` prints both). A host whose memory is mostly state that changes
(a home, a job, a plan) may turn it on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from eden_memory.domain.ranking import FusedHit

SECONDS_A_DAY = 86_400.0


def decay_factor(said: datetime, now: datetime, half_life_days: float) -> float:
    """In (0, 1]: 1 for a fact said now (or later), halved every ``half_life_days``."""
    if half_life_days <= 0:
        raise ValueError("a half-life must be positive")
    days = max((now - said).total_seconds(), 0.0) / SECONDS_A_DAY
    return float(0.5 ** (days / half_life_days))


def decayed(
    hits: Sequence[FusedHit],
    said: Mapping[str, datetime],
    now: datetime,
    half_life_days: float,
) -> list[FusedHit]:
    """The hits with their scores decayed by age, best first again: a score loses the share
    of its size that its age's factor takes (a negative one goes down too, at most to twice
    itself); a hit of unknown age (``said`` lacks it) keeps its score."""
    out = []
    for hit in hits:
        when = said.get(hit.id)
        if when is None:
            out.append(hit)
            continue
        lost = 1.0 - decay_factor(when, now, half_life_days)
        out.append(replace(hit, score=hit.score - abs(hit.score) * lost))
    return sorted(out, key=lambda h: -h.score)
