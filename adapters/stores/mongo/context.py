"""What every concern of the MongoDB store shares: collections, codecs, options, transactions.

Whether the deployment has transactions is found out once, on first use, from the server's
own answer, and remembered for the life of the store; nothing is guessed from version
strings. (What the rankings learn of Atlas Search and ``$text`` is ``MongoRanking``'s.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from pymongo.errors import PyMongoError

from eden_memory.adapters.stores.mongo.codec import IdCodec
from eden_memory.adapters.stores.mongo.compat import Driver
from eden_memory.adapters.stores.mongo.documents import WRITTEN_AT, key_id
from eden_memory.adapters.stores.mongo.errors import transactions_unsupported, translate
from eden_memory.adapters.stores.mongo.gateway import Gateway
from eden_memory.adapters.stores.mongo.index_setup import ensure_regular_indexes
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.adapters.stores.mongo.reading import Readers
from eden_memory.domain.scopes import ScopeKey

T = TypeVar("T")


class MongoContext:
    """The shared handle: one per store, held by each of its concerns."""

    def __init__(self, database: Any, options: MongoStoreOptions) -> None:
        self.options = options
        self.driver = Driver(database)
        self.ids = IdCodec(options.id_mode)
        names, retries = options.collections, options.retries
        self.facts = Gateway(self.driver, names.facts, retries, self.ready)
        self.reflections = Gateway(self.driver, names.reflections, retries, self.ready)
        self.consolidated = Gateway(self.driver, names.consolidated, retries, self.ready)
        self.sessions = Gateway(self.driver, names.sessions, retries, self.ready)
        self.messages = Gateway(self.driver, names.messages, retries, self.ready)
        self.revisions = Gateway(self.driver, names.revisions, retries, self.ready)
        self.contexts = Gateway(self.driver, names.contexts, retries, self.ready)
        self.meta = Gateway(self.driver, names.meta, retries, self.ready)
        self.read = Readers(self.ids, names)
        self.indexed = not options.ensure_indexes
        # None: not known yet; settled by the server's first answer.
        self.transactions: bool | None = None
        self._space_moved: list[Callable[[], None]] = []

    async def ready(self) -> None:
        """Create the regular indexes once per store (idempotent on the server)."""
        if not self.indexed:
            await ensure_regular_indexes(self.driver, self.options)
            self.indexed = True

    def on_space_moved(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever the facts move to another embedding space."""
        self._space_moved.append(listener)

    def space_moved(self) -> None:
        for listener in self._space_moved:
            listener()

    async def stamp_written(self, fact_ids: list[Any]) -> None:
        """Let the server write ``WRITTEN_AT`` on facts just inserted (inserts cannot)."""
        if fact_ids:
            stamp = {"$currentDate": {WRITTEN_AT: True}}
            await self.facts.update_many({"_id": {"$in": fact_ids}}, stamp)

    async def atomically(self, work: Callable[[Any], Awaitable[T]], what: str) -> T:
        """Run ``work(session)`` in a transaction where the deployment has them.

        Elsewhere (a standalone server, mongomock) ``work(None)`` runs its writes in the
        order it makes them, each atomic on its own; callers order them so that a crash in
        between loses nothing (see ``docs/atlas.md``).
        """
        await self.ready()  # indexes first: never inside a transaction
        if self.transactions is not False:
            try:
                async with self.driver.session() as session:
                    result: T = await session.with_transaction(work)
                self.transactions = True
                return result
            except (PyMongoError, NotImplementedError) as error:
                if not transactions_unsupported(error):
                    if isinstance(error, PyMongoError):
                        raise translate(error, what) from error
                    raise
                self.transactions = False
        return await work(None)

    async def bump(self, keys: Iterable[ScopeKey], session: Any = None) -> None:
        """Move the revision counter of each key (see ``RevisionStore.revisions``)."""
        for key in sorted(set(keys)):
            agent = self.ids.owner(key.agent_id, "agent_id")
            await self.revisions.update_one(
                {"_id": key_id(key, self.ids), "agent_id": agent},
                {"$inc": {"revision": 1}},
                upsert=True,
                session=session,
                retry=False,
            )
