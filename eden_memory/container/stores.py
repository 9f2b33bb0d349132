"""The store adapters as container resources, each built as a ``Stores`` (the store by
concern): opened on first use, closed at shutdown.

Each builder imports its adapter only when that store is selected, so the MongoDB driver
is never loaded for an embedded store and a missing extra fails with its name.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from eden_memory.config import EdenMemoryConfig
from eden_memory.domain.errors import ConfigurationError, MissingExtraError
from eden_memory.ports.stores import Stores

if TYPE_CHECKING:
    from eden_memory.adapters.stores.mongo import MongoStoreOptions


def memory_stores() -> Stores:
    """The in-memory store: nothing persists, nothing to close (tests, experiments)."""
    from eden_memory.adapters.stores.memory import memory_stores as stores

    return stores()


async def embedded_stores(config: EdenMemoryConfig) -> AsyncIterator[Stores]:
    """The SQLite file at ``store_path``, open for the container's lifetime."""
    try:
        from eden_memory.adapters.stores.sqlite import open_sqlite
    except ImportError as error:
        raise MissingExtraError("The embedded store", "embedded", error.name or "numpy") from error
    async with await open_sqlite(config.store_path) as stores:
        yield stores


def _pymongo() -> Any:
    try:
        import pymongo
    except ImportError as error:
        raise MissingExtraError("The MongoDB store", "mongo", "pymongo") from error
    return pymongo


async def mongo_client(config: EdenMemoryConfig) -> AsyncIterator[Any]:
    """PyMongo's ``AsyncMongoClient`` for ``mongodb_uri``; the container owns and closes it."""
    pymongo = _pymongo()
    if not config.mongodb_uri:
        raise ConfigurationError("the mongo store needs EDEN_MEMORY_MONGODB_URI")
    timeout_ms = round(config.mongodb_server_selection_timeout_seconds * 1000)
    client = pymongo.AsyncMongoClient(config.mongodb_uri, serverSelectionTimeoutMS=timeout_ms)
    try:
        yield client
    finally:
        await client.close()


def mongo_options(config: EdenMemoryConfig) -> MongoStoreOptions:
    """The store's layout and behaviour from the flat ``mongodb_*`` settings."""
    _pymongo()
    from eden_memory.adapters.stores.mongo import (
        CollectionNames,
        IdMode,
        MongoStoreOptions,
        SearchIndexNames,
    )

    return MongoStoreOptions(
        collections=CollectionNames(prefix=config.mongodb_collection_prefix),
        search_indexes=SearchIndexNames(config.mongodb_vector_index, config.mongodb_text_index),
        id_mode=IdMode(config.mongodb_id_mode),
        exact_vector_search=config.mongodb_exact_vector_search,
        index_lag_seconds=config.mongodb_index_lag_seconds,
        ensure_indexes=config.mongodb_ensure_indexes,
    )


def mongo_stores(client: Any, config: EdenMemoryConfig) -> Stores:
    """The MongoDB store on ``mongodb_database`` of the container's client."""
    from eden_memory.adapters.stores.mongo import mongo_stores as stores

    return stores(client[config.mongodb_database], mongo_options(config))
