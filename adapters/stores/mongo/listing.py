"""Facts in time order: the management listing and the FIFO of recent facts.

BSON dates stop at milliseconds; sorting on the kept microseconds (``_us``) as a second
key orders facts exactly, and the few at the boundary millisecond are filtered exactly.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.codec import MICROS, bson_time
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import fact_from_document
from eden_memory.adapters.stores.mongo.visibility import visible_active
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import FactQuery

NEWEST_FIRST = [("formed_at", -1), (f"{MICROS}.formed_at", -1), ("_id", 1)]
NO_VECTOR = {"embedding": 0}


class ListingMethods:
    ctx: MongoContext

    async def list_facts(self, query: FactQuery) -> list[Fact]:
        if query.limit < 0 or query.offset < 0:
            raise InvalidInputError("limit and offset must not be negative")
        if query.limit == 0:
            return []
        ids = self.ctx.ids
        found: dict[str, Any] = {"agent_id": ids.owner(query.agent_id, "agent_id")}
        if query.scope is not None:
            found["scope"] = query.scope.value
        if query.user_id is not None:
            found["user_id"] = ids.owner(query.user_id, "user_id")
        if query.status is not None:
            found["status"] = query.status.value
        documents = await self.ctx.facts.find(
            found, NO_VECTOR, sort=NEWEST_FIRST, limit=query.limit, skip=query.offset
        )
        return [fact_from_document(d, ids) for d in documents]

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        if limit <= 0 or visibility.is_empty:
            return []
        query = {
            "$and": [
                visible_active(visibility, self.ctx.ids),
                {"formed_at": {"$gte": bson_time(since)}},
            ]
        }
        documents = await self.ctx.facts.find(query, NO_VECTOR, sort=NEWEST_FIRST, limit=limit)
        facts = [fact_from_document(d, self.ctx.ids) for d in documents]
        # Sorted exactly newest first, so the ones dropped here are the last ones.
        return [f for f in facts if f.formed_at >= since]
