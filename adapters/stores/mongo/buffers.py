"""Reflections and consolidated blobs: a scope key's buffer, and the blob consolidations
absorb it into.

Reflections: the buffer of one scope key, until a consolidation absorbs them.

Buffering (``buffering.buffer``, shared with a completing claim) is an upsert with
``$setOnInsert`` on the reflection's id, so adding the same reflection twice (a retried
formation) changes nothing and never raises, even inside a transaction.

Blobs: one per scope key, replaced only by compare-and-set on ``version``.

The blob's ``_id`` is its scope key, and ``consolidated_key`` is a unique index on the key
fields (shard-key prefixed, so it holds on a sharded cluster too). A commit for version
*n* > 0 is ``update_one`` with ``version: n`` in the filter; only a commit for version 0
may upsert, and of two version-0 commits racing, the unique index lets one insert win and
turns the other into a duplicate key: reported as a lost compare-and-set, nothing written.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.buffering import buffer
from eden_memory.adapters.stores.mongo.codec import MICROS, time_update
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import (
    blob_document,
    key_filter,
    key_id,
    reflection_document,
)
from eden_memory.adapters.stores.mongo.errors import DuplicateKey
from eden_memory.adapters.stores.mongo.owners import ids_from, owner_filter, owners_page
from eden_memory.domain.errors import ConflictError, InvalidInputError, NotFoundError
from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey

OLDEST_FIRST = [
    ("formed_at", 1),
    (f"{MICROS}.formed_at", 1),
    ("created_at", 1),
    (f"{MICROS}.created_at", 1),
    ("_id", 1),
]


class MongoBuffers:
    """The ``BufferStore`` on MongoDB: reflections, and the blobs they are absorbed into."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx

    async def add_reflections(self, reflections: Sequence[Reflection]) -> None:
        await buffer(self.ctx, reflections)

    async def get_reflection(self, reflection_id: ReflectionId) -> Reflection | None:
        wanted = self.ctx.ids.record(reflection_id, "reflection id")
        found = await self.ctx.reflections.find_one({"_id": wanted})
        return None if found is None else self.ctx.read.reflection(found)

    async def unabsorbed(self, keys: Sequence[ScopeKey]) -> list[Reflection]:
        if not keys:
            return []
        owners = [key_filter(k, self.ctx.ids) for k in dict.fromkeys(keys)]
        query = {"$or": owners, "absorbed": False}
        found = await self.ctx.reflections.find(query, sort=OLDEST_FIRST)
        return [self.ctx.read.reflection(d) for d in found]

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
        return [self.ctx.read.reflection(d) for d in found]

    async def update_reflection(self, reflection: Reflection, expected_version: int) -> Reflection:
        document = reflection_document(reflection, self.ctx.ids)
        reflection_id = document.pop("_id")
        before = await self.ctx.reflections.find_one({"_id": reflection_id})
        if before is None:
            raise NotFoundError(f"no reflection with id {reflection_id!r}")
        if before.get("absorbed"):
            raise ConflictError(f"reflection {reflection_id} is absorbed into a blob already")
        document.setdefault(MICROS, {})
        matched, _ = await self.ctx.reflections.update_one(
            {"_id": reflection_id, "absorbed": False, "version": _version_is(expected_version)},
            {"$set": document},
            retry=False,
        )
        if not matched:
            raise ConflictError(
                f"reflection {reflection_id} is no longer at version {expected_version} "
                "(or was absorbed meanwhile)"
            )
        old = self.ctx.read.reflection(before)
        await self.ctx.bump([old.key, reflection.key])
        return reflection

    async def delete_reflections(self, ids: Sequence[ReflectionId]) -> int:
        wanted = list(dict.fromkeys(self.ctx.ids.record(i, "reflection id") for i in ids))
        if not wanted:
            return 0
        query = {"_id": {"$in": wanted}, "absorbed": False}
        doomed = [self.ctx.read.reflection(d) for d in await self.ctx.reflections.find(query)]
        removed = await self.ctx.reflections.delete_many(query)
        await self.ctx.bump(r.key for r in doomed)
        return removed

    async def purge_reflections(
        self, remove: Sequence[ReflectionId], rewrite: Sequence[Reflection]
    ) -> int:
        ids = self.ctx.ids
        wanted = list(dict.fromkeys(ids.record(i, "reflection id") for i in remove))
        doomed = [
            self.ctx.read.reflection(d)
            for d in await self.ctx.reflections.find({"_id": {"$in": wanted}})
        ]
        removed = await self.ctx.reflections.delete_many({"_id": {"$in": wanted}}) if wanted else 0
        for reflection in rewrite:
            document = reflection_document(reflection, ids)
            document.setdefault(MICROS, {})
            reflection_id = document.pop("_id")
            await self.ctx.reflections.update_one(
                {"_id": reflection_id, "agent_id": document["agent_id"]}, {"$set": document}
            )
        await self.ctx.bump([*(r.key for r in doomed), *(r.key for r in rewrite)])
        return removed

    async def get_consolidated(
        self, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        if not keys:
            return {}
        wanted = [key_id(k, self.ctx.ids) for k in keys]
        found = await self.ctx.consolidated.find({"_id": {"$in": wanted}})
        blobs = [self.ctx.read.blob(d) for d in found]
        return {b.key: b for b in blobs}

    async def list_consolidated(self, agent_id: AgentId) -> list[ConsolidatedMemory]:
        query = {"agent_id": self.ctx.ids.owner(agent_id, "agent_id")}
        found = await self.ctx.consolidated.find(query, sort=[("_id", 1)])
        return [self.ctx.read.blob(d) for d in found]

    async def note_owners(
        self, agent_id: AgentId, scope: Scope, after: str | None, limit: int
    ) -> list[str]:
        ids = self.ctx.ids
        found, field = owner_filter(ids, agent_id, scope)
        cursor = ids.maybe_owner(after, field)
        pages = [
            await owners_page(gateway, found, field, cursor, limit)
            for gateway in (self.ctx.reflections, self.ctx.consolidated)
        ]
        owners = {str(o) for page in pages for o in page}
        return sorted(owners)[: max(limit, 0)]

    async def note_agents(self, after: AgentId | None, limit: int) -> list[AgentId]:
        cursor = self.ctx.ids.maybe_owner(after, "agent_id")
        pages = [
            await owners_page(gateway, {}, "agent_id", cursor, limit)
            for gateway in (self.ctx.reflections, self.ctx.consolidated)
        ]
        agents = {str(a) for page in pages for a in page}
        return [AgentId(a) for a in sorted(agents)[: max(limit, 0)]]

    async def reflection_ids_starting_with(
        self, agent_id: AgentId, prefix: str, limit: int
    ) -> list[ReflectionId]:
        agent = self.ctx.ids.owner(agent_id, "agent_id")
        found = await ids_from(self.ctx.reflections, agent, prefix, limit)
        return [ReflectionId(i) for i in found]

    async def commit_consolidation(
        self,
        memory: ConsolidatedMemory,
        expected_version: int,
        absorbed: Sequence[ReflectionId],
        now: datetime,
    ) -> bool:
        wanted = [self.ctx.ids.record(r, "reflection id") for r in absorbed]

        async def work(session: Any) -> bool:
            if not await self._compare_and_set(memory, expected_version, session):
                return False
            update = time_update("absorbed_at", now)
            update["$set"].update(absorbed=True, absorbed_into_version=memory.version)
            query = {**key_filter(memory.key, self.ctx.ids), "_id": {"$in": wanted}}
            query["absorbed"] = False
            await self.ctx.reflections.update_many(query, update, session=session)
            await self.ctx.bump([memory.key], session=session)
            return True

        try:
            return await self.ctx.atomically(work, "commit_consolidation")
        except DuplicateKey:
            return False

    async def replace_consolidated(
        self, memory: ConsolidatedMemory, expected_version: int | None
    ) -> bool:
        if expected_version is None:
            document = blob_document(memory, self.ctx.ids)
            document.setdefault(MICROS, {})
            blob_id = document.pop("_id")
            await self.ctx.consolidated.update_one(
                {"_id": blob_id, "agent_id": document["agent_id"]}, {"$set": document}, upsert=True
            )
            won = True
        else:
            try:
                won = await self._compare_and_set(memory, expected_version, None)
            except DuplicateKey:
                won = False
        if won:
            await self.ctx.bump([memory.key])
        return won

    async def _compare_and_set(
        self, memory: ConsolidatedMemory, expected_version: int, session: Any
    ) -> bool:
        if expected_version < 0:
            raise InvalidInputError("expected_version must not be negative")
        document = blob_document(memory, self.ctx.ids)
        document.setdefault(MICROS, {})
        blob_id = document.pop("_id")
        matched, upserted = await self.ctx.consolidated.update_one(
            {"_id": blob_id, "agent_id": document["agent_id"], "version": expected_version},
            {"$set": document},
            upsert=expected_version == 0,
            session=session,
            retry=False,
        )
        return bool(matched or upserted is not None)


def _version_is(expected: int) -> object:
    """A filter on a reflection's ``version``: a document from before versions has none (1)."""
    return {"$in": [1, None]} if expected == 1 else expected
