"""Reads the v1 collections from any MongoDB that PyMongo's async API or Motor reaches.

Only ``find`` and ``distinct`` are ever called: the reader cannot change v1 data. Ids are
matched in both forms (an ObjectId and its hex string), because v1 documents were written
with either.

No pymongo exception leaves the reader: a v1 server that goes away, times out or refuses the
credentials becomes the stores' own ``StoreUnavailableError`` or ``StoreError`` (the same
``translate``), naming what was being read. A run it interrupts is resumed by running the
same job again (the journal's manifest).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eden_memory.domain.errors import MissingExtraError

try:
    from bson import ObjectId
except ModuleNotFoundError:
    raise MissingExtraError("the v1 migration's MongoDB reader", "mongo", "pymongo") from None

from pymongo.errors import PyMongoError

from eden_memory.adapters.stores.mongo.errors import translate
from eden_memory.domain.migration.values import source_id, valid_id
from eden_memory.ports.migration import AGENTS, SESSIONS, USERS, V1Doc

COLLECTIONS = (USERS, AGENTS, SESSIONS)


def both_forms(value: str) -> list[Any]:
    """The string and, when it is a valid ObjectId hex, the ObjectId too."""
    forms: list[Any] = [value]
    if ObjectId.is_valid(value):
        forms.append(ObjectId(value))
    return forms


@contextmanager
def reading(what: str) -> Iterator[None]:
    """pymongo's errors inside become the library's, for "reading v1 <what>"."""
    try:
        yield
    except PyMongoError as error:
        raise translate(error, f"reading v1 {what}") from error


class MongoV1Source:
    """``V1Source`` over a database object (``AsyncMongoClient()[db]`` or a Motor database)."""

    def __init__(self, database: Any, label: str | None = None) -> None:
        self._db = database
        self._label = label or f"mongodb/{database.name}"

    @property
    def label(self) -> str:
        return self._label

    async def _find(self, what: str, collection: str, query: dict[str, Any]) -> list[V1Doc]:
        with reading(what):
            cursor = self._db[collection].find(query).sort("_id", 1)
            return [doc async for doc in cursor]

    async def agent_ids(self) -> list[str]:
        found: set[str] = set()
        for collection in COLLECTIONS:
            with reading("agent ids"):
                values = await self._db[collection].distinct("agent_id")
            for value in values:
                normal = source_id(value)
                if normal is not None:
                    found.add(normal)
        return sorted(found)

    async def unowned(self) -> dict[str, list[str | None]]:
        out: dict[str, list[str | None]] = {}
        for collection in COLLECTIONS:
            with reading("records without an agent"):
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
        what = f"user memories of agent {agent_id!r}"
        return await self._find(what, USERS, self._of_agent(agent_id))

    async def agent_shards(self, agent_id: str) -> list[V1Doc]:
        what = f"agent shards of agent {agent_id!r}"
        return await self._find(what, AGENTS, self._of_agent(agent_id))

    async def session_memories(self, agent_id: str) -> list[V1Doc]:
        what = f"session memories of agent {agent_id!r}"
        return await self._find(what, SESSIONS, self._of_agent(agent_id))

    async def session_memories_by_id(self, ids: Sequence[str]) -> list[V1Doc]:
        forms = [form for i in ids for form in both_forms(i)]
        found = await self._find("session memories by id", SESSIONS, {"_id": {"$in": forms}})
        # A referenced record with a usable agent_id belongs to that agent's own migration.
        return [doc for doc in found if valid_id(doc.get("agent_id")) is None]
