"""The MongoDB store: Atlas Vector Search and Atlas Search at scale, any MongoDB server below.

Needs the ``mongo`` extra (``pip install -e ".[mongo]"`` in the checkout). Setup and operations
are in ``docs/atlas.md``.
"""

from __future__ import annotations

from eden_memory.domain.errors import MissingExtraError

try:
    import pymongo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise MissingExtraError("The MongoDB store", "mongo", "pymongo") from error

from eden_memory.adapters.stores.mongo.buffers import MongoBuffers
from eden_memory.adapters.stores.mongo.facts import MongoFacts
from eden_memory.adapters.stores.mongo.index_setup import (
    IndexReport,
    index_definitions,
    setup_indexes,
)
from eden_memory.adapters.stores.mongo.options import (
    CollectionNames,
    IdMode,
    MongoStoreOptions,
    SearchIndexNames,
)
from eden_memory.adapters.stores.mongo.revisions import MongoRevisions
from eden_memory.adapters.stores.mongo.search import MongoRanking
from eden_memory.adapters.stores.mongo.sessions import MongoSessions
from eden_memory.adapters.stores.mongo.store import mongo_stores

__all__ = [
    "CollectionNames",
    "IdMode",
    "IndexReport",
    "MongoBuffers",
    "MongoFacts",
    "MongoRanking",
    "MongoRevisions",
    "MongoSessions",
    "MongoStoreOptions",
    "SearchIndexNames",
    "index_definitions",
    "mongo_stores",
    "setup_indexes",
]
