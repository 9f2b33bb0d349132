"""Reflections: the buffer of one scope key, until a consolidation absorbs them.

Buffering is an upsert with ``$setOnInsert`` on the reflection's id, so adding the same
reflection twice (a retried formation) changes nothing and never raises, even inside a
transaction, where a duplicate-key error would abort everything around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.stores.mongo.codec import MICROS
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import (
    key_filter,
    reflection_document,
    reflection_from_document,
)
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey

OLDEST_FIRST = [
    ("formed_at", 1),
    (f"{MICROS}.formed_at", 1),
    ("created_at", 1),
    (f"{MICROS}.created_at", 1),
    ("_id", 1),
]


SHARD_KEY = ("agent_id",)  # see docs/atlas.md, "Sharding"


class ReflectionMethods:
    ctx: MongoContext

    async def buffer(self, reflections: Sequence[Reflection], session: Any = None) -> None:
        """Insert the reflections not stored yet; leave the others exactly as they are."""
        if not reflections:
            return
        documents = [reflection_document(r, self.ctx.ids) for r in reflections]
        await self.ctx.reflections.insert_missing(documents, SHARD_KEY, session=session)
        await self.ctx.bump((r.key for r in reflections), session=session)

    async def add_reflections(self, reflections: Sequence[Reflection]) -> None:
        await self.buffer(reflections)

    async def get_reflection(self, reflection_id: ReflectionId) -> Reflection | None:
        wanted = self.ctx.ids.record(reflection_id, "reflection id")
        found = await self.ctx.reflections.find_one({"_id": wanted})
        return None if found is None else reflection_from_document(found, self.ctx.ids)

    async def unabsorbed(self, keys: Sequence[ScopeKey]) -> list[Reflection]:
        if not keys:
            return []
        owners = [key_filter(k, self.ctx.ids) for k in dict.fromkeys(keys)]
        query = {"$or": owners, "absorbed": False}
        found = await self.ctx.reflections.find(query, sort=OLDEST_FIRST)
        return [reflection_from_document(d, self.ctx.ids) for d in found]

    async def list_reflections(
        self, agent_id: AgentId, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        query: dict[str, Any] = {"agent_id": self.ctx.ids.owner(agent_id, "agent_id")}
        if key is not None:
            if key.agent_id != agent_id:
                return []
            query.update(key_filter(key, self.ctx.ids))
        if not include_absorbed:
            query["absorbed"] = False
        found = await self.ctx.reflections.find(query, sort=OLDEST_FIRST)
        return [reflection_from_document(d, self.ctx.ids) for d in found]

    async def update_reflection(self, reflection: Reflection) -> Reflection:
        document = reflection_document(reflection, self.ctx.ids)
        reflection_id = document.pop("_id")
        before = await self.ctx.reflections.find_one({"_id": reflection_id})
        if before is None:
            raise NotFoundError(f"no reflection with id {reflection_id!r}")
        document.setdefault(MICROS, {})
        matched, _ = await self.ctx.reflections.update_one(
            {"_id": reflection_id, "absorbed": False}, {"$set": document}
        )
        if not matched:
            raise ConflictError(f"reflection {reflection_id} is absorbed into a blob already")
        old = reflection_from_document(before, self.ctx.ids)
        await self.ctx.bump([old.key, reflection.key])
        return reflection

    async def delete_reflections(self, ids: Sequence[ReflectionId]) -> int:
        wanted = list(dict.fromkeys(self.ctx.ids.record(i, "reflection id") for i in ids))
        if not wanted:
            return 0
        query = {"_id": {"$in": wanted}, "absorbed": False}
        doomed = [
            reflection_from_document(d, self.ctx.ids)
            for d in await self.ctx.reflections.find(query)
        ]
        removed = await self.ctx.reflections.delete_many(query)
        await self.ctx.bump(r.key for r in doomed)
        return removed
