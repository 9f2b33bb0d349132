"""Facts in time order: the management listing, the FIFO of recent facts, and when the
candidates of a search were said (``fact_origins``, read without their whole documents).

BSON dates stop at milliseconds; sorting on the kept microseconds (``_us``) as a second
key orders facts exactly, and the few at the boundary millisecond are filtered exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from eden_memory.adapters.stores.mongo.codec import MICROS, bson_time
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.visibility import visible_active
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import FactOrigin, FactQuery, ListingPosition

NEWEST_FIRST = [("formed_at", -1), (f"{MICROS}.formed_at", -1), ("_id", 1)]
NO_VECTOR = {"embedding": 0}
ORIGIN = {"formed_at": 1, MICROS: 1, "source_session_id": 1}


def after_position(position: ListingPosition, record_id: str) -> list[dict[str, Any]]:
    """The facts after ``position`` in ``NEWEST_FIRST`` order (milliseconds descending, then
    the microseconds below them, absent meaning 0, then ``_id``), as ``$or`` branches."""
    at = position.formed_at.astimezone(UTC)
    ms, below = bson_time(at), at.microsecond % 1000
    field = f"{MICROS}.formed_at"
    same_below: dict[str, Any] = {field: below} if below else {field: {"$in": [None, 0]}}
    branches: list[dict[str, Any]] = [
        {"formed_at": {"$lt": ms}},
        {"formed_at": ms, **same_below, "_id": {"$gt": record_id}},
    ]
    if below:
        branches.append({"formed_at": ms, "$or": [{field: {"$lt": below}}, {field: None}]})
    return branches


class Listing:
    """Facts listed newest first: management pages and the context's recent facts."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx

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
        if query.after is not None:
            found["$or"] = after_position(query.after, ids.record(query.after.id, "fact id"))
        documents = await self.ctx.facts.find(
            found, NO_VECTOR, sort=NEWEST_FIRST, limit=query.limit, skip=query.offset
        )
        return [self.ctx.read.fact(d) for d in documents]

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
        facts = [self.ctx.read.fact(d) for d in documents]
        # Sorted exactly newest first, so the ones dropped here are the last ones.
        return [f for f in facts if f.formed_at >= since]

    async def fact_origins(
        self, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        if not ids or visibility.is_empty:
            return {}
        wanted = [self.ctx.ids.record(i, "fact id") for i in dict.fromkeys(ids)]
        query = {"$and": [{"_id": {"$in": wanted}}, visible_active(visibility, self.ctx.ids)]}
        documents = await self.ctx.facts.find(query, ORIGIN)
        return {FactId(str(d["_id"])): self.ctx.read.origin(d) for d in documents}
