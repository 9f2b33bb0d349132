"""Facts said together: a candidate whose session-mates rank high is raised.

Facts formed from one conversation session share its subject (information retrieval's
cluster hypothesis): when a search ranks one fact of a session high, the others of that
session are likelier to answer too — the second half of an exchange, the detail beside the
headline. Each candidate gains ``weight`` times the lead of *another* candidate of its own
session over the weakest candidate of the list (its best such mate); a fact with no session,
or alone in its session among the candidates, gains nothing. Only candidates count (the
retrievers' lists), so no fact outside them is pulled in. Measured on LoCoMo
(``benchmarks/session_time.py``, weight chosen on one half of the conversations and scored on
the other).

**Why the lead over the weakest, not the score itself.** Hybrid scores are fused on [0, 1]
with the weakest near 0, where the two are one; a retriever alone keeps its own scale, and
e5's cosines all lie between about 0.75 and 0.9: a share of the cosine itself (0.3 × 0.85)
outweighed every difference between candidates, so any fact with a session-mate among the
candidates went above any fact without one, and semantic-only search at the default ``top_k``
lost 10 points of R@10 on LoCoMo (issue 30, item 1). Measured from the weakest candidate,
the raise does not change when every score moves by the same amount, and grows with them
when they are scaled: it means the same on every scale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from eden_memory.domain.ranking import FusedHit


def session_bonuses(
    hits: Sequence[FusedHit], session_of: Mapping[str, str], weight: float
) -> dict[str, float]:
    """What each candidate gains from its session-mates (only those gaining more than 0)."""
    if weight <= 0 or not hits:
        return {}
    weakest = min(h.score for h in hits)
    top: dict[str, list[tuple[float, str]]] = {}  # the two best (lead, id) of each session
    for h in hits:
        session = session_of.get(h.id)
        lead = h.score - weakest
        if not session or lead <= 0:
            continue
        best = sorted([*top.get(session, []), (lead, h.id)], key=lambda p: (-p[0], p[1]))
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
