"""Whether Atlas Search can serve the store: asked of the server, never guessed.

The first search lists the collection's search indexes. A server without Atlas Search
answers CommandNotSupported (mongomock has no such call at all): the store then uses its
exact fallback for good and warns once about scale. On Atlas, search runs through
``$search`` as soon as the text index is ``READY`` with the store's definition, and
``$vectorSearch`` as soon as the vector index is ``READY`` with the definition for the
store's current embedding dimension. Until then (indexes missing, building, stale, or
rebuilding for a re-embedded dimension while Atlas still serves the old one) the exact
fallback answers, and the server is asked again after ``PROBE_SECONDS``. The listing is
remembered; a query that finds the vector index at another dimension after all (rebuilt
by another process) drops it, so the next search asks again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from pymongo.errors import OperationFailure, PyMongoError

from eden_memory.adapters.stores.mongo.compat import Document, Driver
from eden_memory.adapters.stores.mongo.errors import search_unsupported, translate
from eden_memory.adapters.stores.mongo.indexes import text_index, vector_index
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.adapters.stores.mongo.search_setup import serving

log = logging.getLogger("eden_memory.adapters.stores.mongo")
PROBE_SECONDS = 60.0
NAMESPACE_NOT_FOUND = 26

SCALE_WARNING = (
    "MongoDB store: this server has no Atlas Search, so semantic and keyword search scan "
    "every visible fact of the request (exact cosine, client-side BM25). That is fine for "
    "thousands of facts per agent and user, not for millions: use MongoDB Atlas and "
    "`eden-memory setup-indexes` to scale (see docs/atlas.md)."
)
NOT_READY_WARNING = (
    "MongoDB store: the Atlas Search indexes %s are missing, building, stale or defined for "
    "another embedding dimension; searching by exact scan until they are READY. Run "
    "`eden-memory setup-indexes` (see docs/atlas.md)."
)


class AtlasSearch:
    """The server's Atlas Search capability and the readiness of the store's indexes."""

    def __init__(self, options: MongoStoreOptions) -> None:
        self.options = options
        self.available: bool | None = None  # None: not asked yet
        self.listed: list[Document] = []
        self.next_probe = 0.0

    @property
    def ready(self) -> bool:
        """``$search`` can answer: the text index is READY with the store's definition."""
        return serving(self.listed, text_index(self.options))

    def serves(self, dimension: int | None) -> bool:
        """Keyword search (``dimension`` None), or semantic search at ``dimension`` too."""
        if not self.ready:
            return False
        return dimension is None or serving(self.listed, vector_index(dimension, self.options))

    async def usable(self, driver: Driver, collection: Any, dimension: int | None = None) -> bool:
        if self.available is False:
            return False
        if self.serves(dimension):
            return True
        if time.monotonic() < self.next_probe:
            return False
        self.next_probe = time.monotonic() + PROBE_SECONDS
        listed = await self._listed(driver, collection)
        if listed is None:
            return False
        self.listed = listed
        if not self.serves(dimension):
            names = self.options.search_indexes
            log.warning(NOT_READY_WARNING, f"{names.vector}, {names.text}")
        return self.serves(dimension)

    def forget(self) -> None:
        """The listing no longer holds (the index moved under us): ask at the next search."""
        self.listed = []
        self.next_probe = 0.0

    async def _listed(self, driver: Driver, collection: Any) -> list[dict[str, Any]] | None:
        try:
            listed = await driver.list_search_indexes(collection)
        except (PyMongoError, NotImplementedError, TypeError, AttributeError) as error:
            if isinstance(error, OperationFailure) and error.code == NAMESPACE_NOT_FOUND:
                self.available = True  # Atlas, before the first fact exists
                return []
            if isinstance(error, PyMongoError) and not search_unsupported(error):
                raise translate(error, "listing search indexes") from error
            self.unavailable()
            return None
        self.available = True
        return listed

    def unavailable(self) -> None:
        """The server has no Atlas Search: fall back for good, and say so once."""
        if self.available is not False:
            log.warning(SCALE_WARNING)
        self.available = False
        self.listed = []
