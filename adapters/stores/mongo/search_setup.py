"""Atlas Search indexes: created or updated through the driver, then awaited.

Atlas builds search indexes asynchronously: ``create_search_index`` returns at once and
the index answers queries only once ``list_search_indexes`` reports it ``READY``. A
definition that moved (a new embedding dimension) is updated in place, never dropped;
while Atlas rebuilds it, the old index keeps answering (``queryable: true``, status
``BUILDING``), so readiness is ``READY`` *with our definition* as ``latestDefinition``.
``STALE`` (queryable, but no longer following writes) is not ready either.
"""

from __future__ import annotations

import asyncio
import time

from pymongo.errors import PyMongoError
from pymongo.operations import SearchIndexModel

from eden_memory.adapters.stores.mongo.compat import Document, Driver
from eden_memory.adapters.stores.mongo.errors import search_unsupported, translate
from eden_memory.adapters.stores.mongo.index_report import IndexReport
from eden_memory.adapters.stores.mongo.indexes import SearchIndexSpec, contains
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions

READY = "READY"


def index_label(opts: MongoStoreOptions, collection: str, name: str) -> str:
    """``collection.name`` as reports show it."""
    return f"{getattr(opts.collections, collection)}.{name}"


async def create_search_indexes(
    driver: Driver, opts: MongoStoreOptions, specs: tuple[SearchIndexSpec, ...], report: IndexReport
) -> bool:
    """Create or update the search indexes; False when the server has no Atlas Search."""
    collection = driver.collection(opts.collections.facts)
    try:
        existing = {i["name"]: i for i in await driver.list_search_indexes(collection)}
        for spec in specs:
            label = index_label(opts, spec.collection, spec.name)
            found = existing.get(spec.name)
            if found is None:
                model = SearchIndexModel(spec.definition, name=spec.name, type=spec.type)
                await collection.create_search_index(model)
                report.created.append(label)
            elif contains(found.get("latestDefinition"), spec.definition):
                report.kept.append(label)
            else:
                await collection.update_search_index(spec.name, spec.definition)
                report.updated.append(label)
    except (PyMongoError, NotImplementedError, TypeError, AttributeError) as error:
        if not search_unsupported(error) and isinstance(error, PyMongoError):
            raise translate(error, "creating search indexes") from error
        why = "this server has no Atlas Search; the store uses its exact fallback"
        for spec in specs:
            report.skipped[index_label(opts, spec.collection, spec.name)] = why
        return False
    return True


async def wait_until_ready(
    driver: Driver,
    opts: MongoStoreOptions,
    specs: tuple[SearchIndexSpec, ...],
    report: IndexReport,
    timeout_seconds: float,
    poll_seconds: float,
) -> None:
    """Poll until every search index is ``READY`` with its definition, or the time is up."""
    collection = driver.collection(opts.collections.facts)
    deadline = time.monotonic() + timeout_seconds
    while True:
        try:
            listed = await driver.list_search_indexes(collection)
        except PyMongoError as error:
            raise translate(error, "listing search indexes") from error
        waiting = sorted(spec.name for spec in specs if not serving(listed, spec))
        if not waiting or time.monotonic() >= deadline:
            report.pending = [index_label(opts, "facts", n) for n in waiting]
            return
        await asyncio.sleep(poll_seconds)


def serving(listed: list[Document], spec: SearchIndexSpec) -> bool:
    """The index answers queries with ``spec``'s definition (not an older one, not stale)."""
    return any(
        index.get("name") == spec.name
        and index.get("status") == READY
        and index.get("queryable") is True
        and contains(index.get("latestDefinition"), spec.definition)
        for index in listed
    )
