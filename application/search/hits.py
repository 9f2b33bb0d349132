"""From rankings to facts: stores rank ids, and a search reads only the facts it keeps."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import FactLookup


async def visible_facts(
    store: FactLookup, ids: Sequence[FactId], visibility: FactVisibility, now: datetime
) -> dict[FactId, Fact]:
    """The facts of ``ids`` that are still active, visible and not expired at ``now``.

    A fact ranked a moment ago may have been retired, deleted or moved to another scope by a
    concurrent writer before it is read: it is left out, as if the write had come first. An
    expired fact (``Fact.expired``) is ranked like any other (the stores do not read its
    ``valid_until``, kept in its record) and left out here.
    """
    if not ids:
        return {}
    found = await store.get_facts(list(dict.fromkeys(ids)))
    return {
        f.id: f
        for f in found
        if f.is_active and visibility.admits(f.agent_id, f.scope, f.user_id) and not f.expired(now)
    }
