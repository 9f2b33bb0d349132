"""Revision counters per scope key, and removing everything of one key.

Every write to a key's facts, reflections or blob ends with ``$inc`` on the key's counter
(``MongoContext.bump``), so a context cache in any process notices a change made by any
other by comparing one number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import key_filter, key_id
from eden_memory.domain.scopes import FACT_SCOPES, ScopeKey


class MongoRevisions:
    """The ``RevisionStore`` on MongoDB."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx

    async def revisions(self, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        if not keys:
            return {}
        by_id = {key_id(k, self.ctx.ids): k for k in keys}
        found = await self.ctx.revisions.find({"_id": {"$in": list(by_id)}})
        counters = {by_id[d["_id"]]: self.ctx.read.revision(d) for d in found}
        return {k: counters.get(k, 0) for k in keys}

    async def delete_scope(self, key: ScopeKey) -> int:
        ids = self.ctx.ids

        async def work(session: Any) -> int:
            removed = 0
            if key.scope in FACT_SCOPES:
                owner = key_filter(key, ids, with_session=False)
                removed += await self.ctx.facts.delete_many(owner, session=session)
            owner = key_filter(key, ids)
            removed += await self.ctx.reflections.delete_many(owner, session=session)
            blob = {"_id": key_id(key, ids)}
            removed += await self.ctx.consolidated.delete_many(blob, session=session)
            await self.ctx.bump([key], session=session)
            return removed

        return await self.ctx.atomically(work, "delete_scope")

    async def scrub(self) -> None:
        """Nothing the library can do: the server owns its files. Deleted documents leave
        WiredTiger's data files as the server reuses their space (``compact`` and encryption
        at rest are the operator's tools; see docs/operations.md)."""
