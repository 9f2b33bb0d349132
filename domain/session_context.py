"""Facts said together: a candidate whose session-mates rank high is raised.

Facts formed from one conversation session share its subject (information retrieval's
cluster hypothesis): when a search ranks one fact of a session high, the others of that
session are likelier to answer too — the second half of an exchange, the detail beside the
headline. Each candidate gains ``weight`` times the best score of *another* candidate of its
own session; a fact with no session, or alone in its session among the candidates, gains
nothing. Only candidates count (the retrievers' lists), so no fact outside them is pulled in.
Measured on LoCoMo (``benchmarks/session_time.py``, weight chosen on one half of the
conversations and scored on the other).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from eden_memory.domain.ranking import FusedHit


def session_bonuses(
    hits: Sequence[FusedHit], session_of: Mapping[str, str], weight: float
) -> dict[str, float]:
    """What each candidate gains from its session-mates (only those gaining more than 0)."""
    if weight <= 0:
        return {}
    top: dict[str, list[tuple[float, str]]] = {}  # the two best (score, id) of each session
    for h in hits:
        session = session_of.get(h.id)
        if not session or h.score <= 0:
            continue
        best = sorted([*top.get(session, []), (h.score, h.id)], key=lambda p: (-p[0], p[1]))
        top[session] = best[:2]
    bonuses: dict[str, float] = {}
    for h in hits:
        session = session_of.get(h.id)
        mates = [score for score, doc in top.get(session, []) if doc != h.id] if session else []
        if mates:
            bonuses[h.id] = weight * mates[0]
    return bonuses


def raise_by_session(hits: Sequence[FusedHit], bonuses: Mapping[str, float]) -> list[FusedHit]:
    """``hits`` with each one's bonus added, best first (ties keep their order)."""
    raised = [replace(h, score=h.score + bonuses.get(h.id, 0.0)) for h in hits]
    order = {h.id: i for i, h in enumerate(hits)}
    return sorted(raised, key=lambda h: (-h.score, order[h.id]))
