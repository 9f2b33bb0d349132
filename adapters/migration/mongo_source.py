"""Reads the v1 collections from any MongoDB that PyMongo's async API or Motor reaches.

Only ``find`` and ``distinct`` are ever called: the reader cannot change v1 data. Ids are
matched in both forms (an ObjectId and its hex string), because v1 documents were written
with either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eden_memory.domain.errors import MissingExtraError

try:
    from bson import ObjectId
except ModuleNotFoundError:
    raise MissingExtraError("the v1 migration's MongoDB reader", "mongo", "pymongo") from None

from eden_memory.domain.migration.values import source_id, valid_id
from eden_memory.ports.migration import AGENTS, SESSIONS, USERS, V1Doc

COLLECTIONS = (USERS, AGENTS, SESSIONS)


def both_forms(value: str) -> list[Any]:
    """The string and, when it is a valid ObjectId hex, the ObjectId too."""
    forms: list[Any] = [value]
    if ObjectId.is_valid(value):
        forms.append(ObjectId(value))
    return forms


class MongoV1Source:
    """``V1Source`` over a database object (``AsyncMongoClient()[db]`` or a Motor database)."""

    def __init__(self, database: Any, label: str | None = None) -> None:
        self._db = database
        self._label = label or f"mongodb/{database.name}"

    @property
    def label(self) -> str:
        return self._label

    async def _find(self, collection: str, query: dict[str, Any]) -> list[V1Doc]:
        cursor = self._db[collection].find(query).sort("_id", 1)
        return [doc async for doc in cursor]

    async def agent_ids(self) -> list[str]:
        found: set[str] = set()
        for collection in COLLECTIONS:
            for value in await self._db[collection].distinct("agent_id"):
                normal = source_id(value)
                if normal is not None:
                    found.add(normal)
        return sorted(found)

    async def unowned(self) -> dict[str, list[str | None]]:
        out: dict[str, list[str | None]] = {}
        for collection in COLLECTIONS:
            cursor = self._db[collection].find({}, {"agent_id": 1}).sort("_id", 1)
            bad = [
                source_id(doc.get("_id"))
                async for doc in cursor
                if source_id(doc.get("agent_id")) is None
            ]
            if bad:
                out[collection] = bad
        return out

    def _of_agent(self, agent_id: str) -> dict[str, Any]:
        return {"agent_id": {"$in": both_forms(agent_id)}}

    async def user_memories(self, agent_id: str) -> list[V1Doc]:
        return await self._find(USERS, self._of_agent(agent_id))

    async def agent_shards(self, agent_id: str) -> list[V1Doc]:
        return await self._find(AGENTS, self._of_agent(agent_id))

    async def session_memories(self, agent_id: str) -> list[V1Doc]:
        return await self._find(SESSIONS, self._of_agent(agent_id))

    async def session_memories_by_id(self, ids: Sequence[str]) -> list[V1Doc]:
        forms = [form for i in ids for form in both_forms(i)]
        found = await self._find(SESSIONS, {"_id": {"$in": forms}})
        # A referenced record with a usable agent_id belongs to that agent's own migration.
        return [doc for doc in found if valid_id(doc.get("agent_id")) is None]
