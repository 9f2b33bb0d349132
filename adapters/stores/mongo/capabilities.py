"""Whether Atlas Search can serve the store: asked of the server, never guessed.

The first search lists the collection's search indexes. A server without Atlas Search
answers CommandNotSupported (mongomock has no such call at all): the store then uses its
exact fallback for good and warns once about scale. On Atlas, search runs through
``$vectorSearch`` / ``$search`` as soon as both of the store's indexes are queryable;
until then (indexes missing or still building) the fallback answers, and the server is
asked again after ``PROBE_SECONDS``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from pymongo.errors import OperationFailure, PyMongoError

from eden_memory.adapters.stores.mongo.compat import Driver
from eden_memory.adapters.stores.mongo.errors import search_unsupported, translate
from eden_memory.adapters.stores.mongo.options import SearchIndexNames
from eden_memory.adapters.stores.mongo.search_setup import queryable

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
    "MongoDB store: the Atlas Search indexes %s are missing or not queryable yet; searching "
    "by exact scan until they are. Run `eden-memory setup-indexes` (see docs/atlas.md)."
)


class AtlasSearch:
    """The server's Atlas Search capability and the readiness of the store's indexes."""

    def __init__(self, names: SearchIndexNames) -> None:
        self.names = names
        self.available: bool | None = None  # None: not asked yet
        self.ready = False
        self.next_probe = 0.0

    async def usable(self, driver: Driver, collection: Any) -> bool:
        if self.available is False:
            return False
        if self.ready:
            return True
        if time.monotonic() < self.next_probe:
            return False
        self.next_probe = time.monotonic() + PROBE_SECONDS
        listed = await self._listed(driver, collection)
        if listed is None:
            return False
        wanted = (self.names.vector, self.names.text)
        self.ready = all(queryable(listed, name) for name in wanted)
        if not self.ready:
            log.warning(NOT_READY_WARNING, ", ".join(wanted))
        return self.ready

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
        self.ready = False
