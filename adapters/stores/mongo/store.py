"""``mongo_stores``: the store on MongoDB, Atlas or not, as one small class per concern.

Built from a database object the host or the container owns (PyMongo's
``AsyncMongoClient(...)[name]``, or a Motor database); the store never opens or closes a
connection itself. The six concerns share one ``MongoContext`` (collections, codecs,
options, what the server can do); none inherits another.

Coordination across worker processes happens in the server (claims by
``find_one_and_update``, compare-and-set on versions, ``$inc`` counters, unique indexes);
the store keeps no locks. Search uses Atlas Vector Search and Atlas Search where the
deployment has them and an exact scan elsewhere (see ``docs/atlas.md``).
"""

from __future__ import annotations

from typing import Any

from eden_memory.adapters.stores.mongo.buffers import MongoBuffers
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.contexts import MongoContexts
from eden_memory.adapters.stores.mongo.facts import MongoFacts
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.adapters.stores.mongo.revisions import MongoRevisions
from eden_memory.adapters.stores.mongo.search import MongoRanking
from eden_memory.adapters.stores.mongo.sessions import MongoSessions
from eden_memory.ports.stores import Stores


def mongo_stores(database: Any, options: MongoStoreOptions | None = None) -> Stores:
    """Every store port on one MongoDB database."""
    ctx = MongoContext(database, options or MongoStoreOptions())

    async def close() -> None:
        """Nothing to release: the client belongs to whoever built the database object."""

    facts, sessions, buffers = MongoFacts(ctx), MongoSessions(ctx), MongoBuffers(ctx)
    return Stores(
        facts=facts,
        fact_reads=facts,
        fact_records=facts,
        ranking=MongoRanking(ctx),
        sessions=sessions,
        session_records=sessions,
        buffers=buffers,
        note_records=buffers,
        revisions=MongoRevisions(ctx),
        contexts=MongoContexts(ctx),
        close=close,
    )
