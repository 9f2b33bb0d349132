"""``MongoContexts``: the ``ContextStore`` port on MongoDB.

One document per session and variant in the ``contexts`` collection, found by the unique
index ``context_key`` (agent, session, variant: the filter pins the shard key docs/atlas.md
advises). Times keep their microseconds (``codec.MICROS``), so the freshness a worker judges
is the one the builder stored. A save reads the revisions of the context's keys first and
keeps it only if they have not moved: two round trips, not one transaction, so a change
landing between them leaves a context no worker serves (its revisions are behind) until
the TTL or the next save replaces it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.codec import (
    MICROS,
    bson_time,
    decode_document,
    encode_document,
)
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import key_id
from eden_memory.adapters.stores.mongo.reading import decoded
from eden_memory.domain.ids import AgentId
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.ports.stores.contexts import StoredContext, context_variant


class MongoContexts:
    """The ``ContextStore`` on MongoDB."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx

    def _filter(self, scopes: ActiveScopes, recipe: str) -> dict[str, Any]:
        ids = self.ctx.ids
        return {
            "agent_id": ids.owner(scopes.agent_id, "agent_id"),
            "session_id": ids.owner(scopes.session_id, "session_id"),
            "variant": context_variant(scopes, recipe),
        }

    async def load_context(self, scopes: ActiveScopes, recipe: str = "") -> StoredContext | None:
        found = await self.ctx.contexts.find_one(self._filter(scopes, recipe))
        return None if found is None else decoded(self.ctx.contexts.name, found, _context)

    async def save_context(
        self, scopes: ActiveScopes, context: StoredContext, stale_before: datetime, recipe: str = ""
    ) -> None:
        agent = self.ctx.ids.owner(scopes.agent_id, "agent_id")
        stale = {"agent_id": agent, "built_at": {"$lt": bson_time(stale_before)}}
        await self.ctx.contexts.delete_many(stale)
        if await self._revisions(scopes) != context.revisions:
            return  # built from memory that has changed since: never to be served
        fields = encode_document(
            {
                "built_at": context.built_at,
                "until": context.until,
                "facts": context.facts,
                "revisions": list(context.revisions),
                "xml": context.xml,
            }
        )
        fields.setdefault(MICROS, {})  # replaces the microseconds of the one it replaces
        await self.ctx.contexts.update_one(
            self._filter(scopes, recipe), {"$set": fields}, upsert=True
        )

    async def _revisions(self, scopes: ActiveScopes) -> tuple[int, ...]:
        """The counters of the scopes' keys now (0 for a key never changed)."""
        keys = scopes.keys()
        by_id = {key_id(k, self.ctx.ids): k for k in keys}
        found = await self.ctx.revisions.find({"_id": {"$in": list(by_id)}})
        counters = {by_id[d["_id"]]: self.ctx.read.revision(d) for d in found}
        return tuple(counters.get(k, 0) for k in keys)

    async def drop_contexts(self, agent_id: AgentId) -> int:
        agent = self.ctx.ids.owner(agent_id, "agent_id")
        return await self.ctx.contexts.delete_many({"agent_id": agent})


def _context(document: Document) -> StoredContext:
    doc = decode_document(document)
    revisions = doc["revisions"]
    if not isinstance(revisions, list) or any(type(r) is not int for r in revisions):
        raise TypeError("its revisions are not integers")
    if not isinstance(doc["xml"], str) or not isinstance(doc["built_at"], datetime):
        raise TypeError("its text or time has the wrong type")
    return StoredContext(
        xml=doc["xml"],
        built_at=doc["built_at"],
        facts=int(doc["facts"]),
        revisions=tuple(revisions),
        until=doc.get("until"),
    )
