"""PyMongo's async API and Motor, behind one face.

PyMongo's ``AsyncDatabase`` (pymongo >= 4.13, Motor's successor) and a Motor database
(hosts still on Motor; mongomock through ``mongomock-motor`` in tests) take the same
arguments everywhere; they differ only in which calls return an awaitable: PyMongo awaits
``aggregate``, ``list_indexes``, ``list_search_indexes`` and ``close``, and starts a session
without awaiting; Motor is the other way round. Only those calls go through this module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, cast

from pymongo.asynchronous.database import AsyncDatabase

Document = dict[str, Any]


class Driver:
    """The calls whose awaiting differs between PyMongo's async API and Motor."""

    def __init__(self, database: Any) -> None:
        self.database = database
        self.native = isinstance(database, AsyncDatabase)

    def collection(self, name: str) -> Any:
        return self.database[name]

    async def aggregate(
        self, collection: Any, pipeline: Sequence[Mapping[str, Any]], session: Any = None
    ) -> list[Document]:
        cursor = collection.aggregate(list(pipeline), session=session)
        if self.native:
            cursor = await cursor
        return cast(list[Document], await cursor.to_list(None))

    async def list_indexes(self, collection: Any) -> list[Document]:
        cursor = collection.list_indexes()
        if self.native:
            cursor = await cursor
        return [dict(index) for index in await cursor.to_list(None)]

    async def list_search_indexes(self, collection: Any) -> list[Document]:
        """Search indexes; raises what the server raises where there is no Atlas Search."""
        cursor = collection.list_search_indexes()
        if self.native:
            cursor = await cursor
        return [dict(index) for index in await cursor.to_list(None)]

    @asynccontextmanager
    async def session(self) -> AsyncIterator[Any]:
        """A client session; raises where the deployment has none (mongomock)."""
        client = self.database.client
        started = client.start_session() if self.native else await client.start_session()
        async with started as session:
            yield session

    async def close(self) -> None:
        """Close the client: for the owner of its lifecycle (the container), not the store."""
        closing = self.database.client.close()
        if self.native:
            await closing
