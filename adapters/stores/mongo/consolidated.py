"""Consolidated blobs: one per scope key, replaced only by compare-and-set on ``version``.

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

from eden_memory.adapters.stores.mongo.codec import MICROS, time_update
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import (
    blob_document,
    blob_from_document,
    key_filter,
    key_id,
)
from eden_memory.adapters.stores.mongo.errors import DuplicateKey
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import ScopeKey


class ConsolidatedMethods:
    ctx: MongoContext

    async def get_consolidated(
        self, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        if not keys:
            return {}
        wanted = [key_id(k, self.ctx.ids) for k in keys]
        found = await self.ctx.consolidated.find({"_id": {"$in": wanted}})
        blobs = [blob_from_document(d, self.ctx.ids) for d in found]
        return {b.key: b for b in blobs}

    async def list_consolidated(self, agent_id: AgentId) -> list[ConsolidatedMemory]:
        query = {"agent_id": self.ctx.ids.owner(agent_id, "agent_id")}
        found = await self.ctx.consolidated.find(query, sort=[("_id", 1)])
        return [blob_from_document(d, self.ctx.ids) for d in found]

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
