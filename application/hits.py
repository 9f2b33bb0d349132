"""From rankings to facts: stores rank ids, and a search reads only the facts it keeps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import FactStore, RankedFact


@dataclass(frozen=True)
class FactHit:
    """A fact found by a retriever, with the retriever's score."""

    fact: Fact
    score: float


async def visible_facts(
    store: FactStore, ids: Sequence[FactId], visibility: FactVisibility
) -> dict[FactId, Fact]:
    """The facts of ``ids`` that are still active and visible.

    A fact ranked a moment ago may have been retired, deleted or moved to another scope by a
    concurrent writer before it is read: it is left out, as if the write had come first.
    """
    if not ids:
        return {}
    found = await store.get_facts(list(dict.fromkeys(ids)))
    return {
        f.id: f for f in found if f.is_active and visibility.admits(f.agent_id, f.scope, f.user_id)
    }


async def ranked_hits(
    store: FactStore, ranked: Sequence[RankedFact], visibility: FactVisibility
) -> list[FactHit]:
    """The facts behind a ranking, in its order (see ``visible_facts``)."""
    facts = await visible_facts(store, [r.id for r in ranked], visibility)
    return [FactHit(facts[r.id], r.score) for r in ranked if r.id in facts]
