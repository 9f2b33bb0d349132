"""MongoStore: the MemoryStore on MongoDB, Atlas or not.

Built from a database object the host or the container owns (PyMongo's
``AsyncMongoClient(...)[name]``, or a Motor database); the store never opens or closes a
connection itself. Each concern lives in its own module; this class only assembles them.
"""

from __future__ import annotations

from typing import Any

from eden_memory.adapters.stores.mongo.claims import ClaimMethods
from eden_memory.adapters.stores.mongo.consolidated import ConsolidatedMethods
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.facts import FactMethods
from eden_memory.adapters.stores.mongo.index_setup import IndexReport, setup_indexes
from eden_memory.adapters.stores.mongo.listing import ListingMethods
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.adapters.stores.mongo.revisions import RevisionMethods
from eden_memory.adapters.stores.mongo.search import SearchMethods
from eden_memory.adapters.stores.mongo.sessions import SessionMethods


class MongoStore(
    FactMethods,
    ListingMethods,
    SearchMethods,
    ConsolidatedMethods,
    SessionMethods,
    ClaimMethods,
    RevisionMethods,
):
    """Every port of ``ports.stores`` on one MongoDB database.

    Coordination across worker processes happens in the server (claims by
    ``find_one_and_update``, compare-and-set on versions, ``$inc`` counters, unique
    indexes); the store keeps no locks. Search uses Atlas Vector Search and Atlas Search
    where the deployment has them and an exact scan elsewhere (see ``docs/atlas.md``).
    """

    def __init__(self, database: Any, options: MongoStoreOptions | None = None) -> None:
        self.ctx = MongoContext(database, options or MongoStoreOptions())

    @property
    def options(self) -> MongoStoreOptions:
        return self.ctx.options

    async def close(self) -> None:
        """Nothing to release: the client belongs to whoever built the database object."""

    async def setup_indexes(
        self,
        dimension: int,
        *,
        dry_run: bool = False,
        wait: bool = True,
        timeout_seconds: float = 600.0,
    ) -> IndexReport:
        """Create this store's indexes (see ``index_setup.setup_indexes``)."""
        return await setup_indexes(
            self.ctx.driver.database,
            dimension,
            options=self.ctx.options,
            dry_run=dry_run,
            wait=wait,
            timeout_seconds=timeout_seconds,
        )
