"""``setup_indexes``: create every index idempotently and wait until search can use them.

What ``eden-memory setup-indexes`` runs. An index that exists with the same definition is
kept; a regular index under our name with another definition is reported and left alone
(dropping an index is a person's decision); a search index whose definition moved (a new
embedding dimension) is updated in place. Atlas builds search indexes asynchronously, so
the call waits until each reports ``READY`` with the definition it was given (an index
being rebuilt keeps answering with its old one), or reports which are still pending.
"""

from __future__ import annotations

from typing import Any

from pymongo.errors import PyMongoError

from eden_memory.adapters.stores.mongo.compat import Document, Driver
from eden_memory.adapters.stores.mongo.errors import translate
from eden_memory.adapters.stores.mongo.index_report import IndexReport
from eden_memory.adapters.stores.mongo.indexes import REGULAR, TEXT_FALLBACK, IndexSpec, contains
from eden_memory.adapters.stores.mongo.indexes import search_indexes as search_specs
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.adapters.stores.mongo.search_setup import (
    create_search_indexes,
    index_label,
    wait_until_ready,
)
from eden_memory.domain.errors import StoreError, StoreUnavailableError

__all__ = ["IndexReport", "ensure_regular_indexes", "index_definitions", "setup_indexes"]


def index_definitions(dimension: int, options: MongoStoreOptions | None = None) -> list[Document]:
    """Every index definition, as ``--dry-run`` prints it; touches no server."""
    opts = options or MongoStoreOptions()
    names = opts.collections
    regular = [*REGULAR, TEXT_FALLBACK]
    out = [spec.document(getattr(names, spec.collection)) for spec in regular]
    return out + [s.document(getattr(names, s.collection)) for s in search_specs(dimension, opts)]


async def setup_indexes(
    database: Any,
    dimension: int,
    *,
    options: MongoStoreOptions | None = None,
    dry_run: bool = False,
    wait: bool = True,
    timeout_seconds: float = 600.0,
    poll_seconds: float = 5.0,
) -> IndexReport:
    """Create the store's indexes (regular and Atlas Search) and report what happened.

    ``dimension`` is the embedder's: the vector index is built for it. With ``dry_run``
    nothing is sent and ``database`` may be None. On a server without Atlas Search the
    search indexes are skipped with the reason; the store then uses its fallback.
    """
    opts = options or MongoStoreOptions()
    report = IndexReport(definitions=index_definitions(dimension, opts), dry_run=dry_run)
    if dry_run:
        return report
    driver = Driver(database)
    for spec in REGULAR:
        await _regular(driver, opts, spec, report)
    specs = search_specs(dimension, opts)
    if not await create_search_indexes(driver, opts, specs, report):
        await _text_fallback(driver, opts, report)
    elif wait:
        await wait_until_ready(driver, opts, specs, report, timeout_seconds, poll_seconds)
    return report


async def ensure_regular_indexes(driver: Driver, options: MongoStoreOptions) -> IndexReport:
    """The regular indexes only: what a store creates for itself on first use."""
    report = IndexReport()
    for spec in REGULAR:
        await _regular(driver, options, spec, report)
    return report


async def _regular(
    driver: Driver, opts: MongoStoreOptions, spec: IndexSpec, report: IndexReport
) -> None:
    label = index_label(opts, spec.collection, spec.name)
    collection = driver.collection(getattr(opts.collections, spec.collection))
    try:
        existing = {i["name"]: i for i in await driver.list_indexes(collection)}
        found = existing.get(spec.name)
        if found is None:
            await collection.create_index(list(spec.keys), **spec.options())
            report.created.append(label)
        elif same_regular(spec, found):
            report.kept.append(label)
        else:
            report.skipped[label] = "exists with another definition; drop it to recreate"
    except PyMongoError as error:
        raise translate(error, f"creating index {label}") from error


async def _text_fallback(driver: Driver, opts: MongoStoreOptions, report: IndexReport) -> None:
    """Without Atlas Search, a ``$text`` index narrows keyword candidates where it exists."""
    label = index_label(opts, TEXT_FALLBACK.collection, TEXT_FALLBACK.name)
    try:
        await _regular(driver, opts, TEXT_FALLBACK, report)
    except StoreUnavailableError:
        raise
    except StoreError as error:
        report.skipped[label] = f"this server has no text index ({error}); keywords scan"


def same_regular(spec: IndexSpec, found: Document) -> bool:
    if any(kind == "text" for _, kind in spec.keys):  # listed as _fts/_ftsx by mongod
        key = dict(found.get("key", {}))
        language = (spec.extra or {}).get("default_language", "english")
        # A text index of another language (releases before stemming made it "none") stems
        # otherwise: reported, so that a person drops it and setup makes it again.
        same_language = found.get("default_language", "english") == language
        return ("_fts" in key or "text" in key.values()) and same_language
    return (
        list(dict(found.get("key", {})).items()) == list(spec.keys)
        and bool(found.get("unique", False)) == spec.unique
        and contains(found.get("partialFilterExpression"), spec.partial)
    )
