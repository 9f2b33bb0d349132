"""Every call to a collection passes here: pymongo errors translated, safe calls retried.

Reads and idempotent writes (``retry=True``) are retried after a transient network error;
a write that would count twice (``$inc``) is not. Whatever still fails leaves as
``StoreUnavailableError`` or ``StoreError``, never as a pymongo exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from pymongo import ReturnDocument
from pymongo.errors import BulkWriteError, PyMongoError

from eden_memory.adapters.stores.mongo.compat import Document, Driver
from eden_memory.adapters.stores.mongo.errors import is_duplicate_key, is_transient, translate

T = TypeVar("T")
Filter = Mapping[str, Any]


class Gateway:
    """One collection, with the calls the store makes and nothing else."""

    def __init__(
        self, driver: Driver, name: str, retries: int, ready: Callable[[], Awaitable[None]]
    ) -> None:
        self.driver = driver
        self.name = name
        self.raw = driver.collection(name)
        self.retries = retries
        self.ready = ready

    async def call(
        self, what: str, op: Callable[[], Awaitable[T]], retry: bool = True, session: Any = None
    ) -> T:
        """Run ``op``; inside a transaction (``session``) errors go to the transaction runner."""
        await self.ready()
        if session is not None:
            return await op()
        try:
            return await self.retrying(op, retry)
        except PyMongoError as error:
            raise translate(error, f"{what} on {self.name}") from error

    async def retrying(self, op: Callable[[], Awaitable[T]], retry: bool = True) -> T:
        """Run ``op``, again after a transient error (backoff 0.05 s, doubling); raises pymongo's
        last error untranslated, for callers that read its code first."""
        attempts = 1 + (self.retries if retry else 0)
        for attempt in range(attempts):
            try:
                return await op()
            except PyMongoError as error:
                if attempt + 1 < attempts and is_transient(error):
                    await asyncio.sleep(0.05 * 2**attempt)
                    continue
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def find(
        self,
        filter: Filter,
        projection: Mapping[str, Any] | None = None,
        sort: Sequence[tuple[str, int]] | None = None,
        limit: int = 0,
        skip: int = 0,
        session: Any = None,
    ) -> list[Document]:
        async def op() -> list[Document]:
            cursor = self.raw.find(dict(filter), projection, session=session)
            if sort:
                cursor = cursor.sort(list(sort))
            if skip:
                cursor = cursor.skip(skip)
            if limit:
                cursor = cursor.limit(limit)
            return cast(list[Document], await cursor.to_list(None))

        return await self.call("find", op, session=session)

    async def find_one(
        self, filter: Filter, projection: Mapping[str, Any] | None = None, session: Any = None
    ) -> Document | None:
        found = await self.call(
            "find",
            lambda: self.raw.find_one(dict(filter), projection, session=session),
            session=session,
        )
        return cast(Document | None, found)

    async def count(self, filter: Filter) -> int:
        return cast(int, await self.call("count", lambda: self.raw.count_documents(dict(filter))))

    async def estimated_count(self) -> int:
        """The collection's size from its metadata (no scan): what an index's statistics see."""
        return cast(int, await self.call("count", lambda: self.raw.estimated_document_count()))

    async def insert_one(self, document: Document) -> bool:
        """False when a unique index already holds this document (nothing is written)."""
        await self.ready()
        try:
            await self.raw.insert_one(document)
        except PyMongoError as error:
            if is_duplicate_key(error):
                return False
            raise translate(error, f"insert on {self.name}") from error
        return True

    async def insert_many(self, documents: Sequence[Document]) -> set[int]:
        """Insert in any order; returns the indexes a unique index turned away."""
        if not documents:
            return set()
        await self.ready()
        try:
            await self.raw.insert_many(list(documents), ordered=False)
        except BulkWriteError as error:
            errors = error.details.get("writeErrors", [])
            if any(e.get("code") != 11000 for e in errors):
                raise translate(error, f"insert on {self.name}") from error
            return {int(e["index"]) for e in errors}
        except PyMongoError as error:
            raise translate(error, f"insert on {self.name}") from error
        return set()

    async def update_one(
        self,
        filter: Filter,
        update: Mapping[str, Any],
        upsert: bool = False,
        session: Any = None,
        retry: bool = True,
    ) -> tuple[int, Any]:
        """(matched count, upserted id or None)."""
        result = await self.call(
            "update",
            lambda: self.raw.update_one(dict(filter), dict(update), upsert=upsert, session=session),
            retry=retry,
            session=session,
        )
        return int(result.matched_count), result.upserted_id

    async def update_many(
        self, filter: Filter, update: Mapping[str, Any], session: Any = None, retry: bool = True
    ) -> int:
        result = await self.call(
            "update",
            lambda: self.raw.update_many(dict(filter), dict(update), session=session),
            retry=retry,
            session=session,
        )
        return int(result.matched_count)

    async def find_one_and_update(
        self,
        filter: Filter,
        update: Mapping[str, Any],
        upsert: bool = False,
        projection: Mapping[str, Any] | None = None,
        session: Any = None,
        retry: bool = False,
    ) -> Document | None:
        """The document after the update, or None when nothing matched (and no upsert).

        Not retried unless the caller says the update is idempotent (``retry``): most are not."""
        found = await self.call(
            "find_one_and_update",
            lambda: self.raw.find_one_and_update(
                dict(filter),
                dict(update),
                projection=projection,
                upsert=upsert,
                return_document=ReturnDocument.AFTER,
                session=session,
            ),
            retry=retry,
            session=session,
        )
        return cast(Document | None, found)

    async def insert_missing(
        self, documents: Sequence[Document], shard_key: Sequence[str], session: Any = None
    ) -> list[int]:
        """Upsert each document by ``_id`` with ``$setOnInsert``; the indexes inserted.

        Unlike ``insert_many`` this never raises on an existing id, so it can run inside a
        transaction, where a duplicate-key error would abort everything around it. The
        filter holds the ``shard_key`` fields too: a sharded cluster routes an upsert only
        by its shard key ("Failed to target upsert by query").
        """
        inserted: list[int] = []
        for index, document in enumerate(documents):
            chosen = {"_id": document["_id"], **{k: document[k] for k in shard_key}}
            fields = {k: v for k, v in document.items() if k not in chosen}
            _, upserted = await self.update_one(
                chosen, {"$setOnInsert": fields}, upsert=True, session=session
            )
            if upserted is not None:
                inserted.append(index)
        return inserted

    async def delete_many(self, filter: Filter, session: Any = None) -> int:
        result = await self.call(
            "delete",
            lambda: self.raw.delete_many(dict(filter), session=session),
            session=session,
        )
        return int(result.deleted_count)
