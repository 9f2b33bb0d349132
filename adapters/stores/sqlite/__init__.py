"""The embedded store: one SQLite file on local disk, FTS5 keyword search, exact vector search.

It needs only the standard library and numpy (the ``embedded`` extra), so a host gets a
persistent memory with no server to run: ``stores = await open_sqlite(path)``.
"""

from eden_memory.domain.errors import MissingExtraError

try:
    import numpy  # noqa: F401
except ModuleNotFoundError:
    raise MissingExtraError("the embedded store", "embedded", "numpy") from None

from eden_memory.adapters.stores.sqlite.buffers.sqlite_buffers import SqliteBuffers
from eden_memory.adapters.stores.sqlite.facts.sqlite_facts import SqliteFacts
from eden_memory.adapters.stores.sqlite.ranking.sqlite_ranking import SqliteRanking
from eden_memory.adapters.stores.sqlite.sessions.sqlite_sessions import SqliteSessions
from eden_memory.adapters.stores.sqlite.sqlite_revisions import SqliteRevisions
from eden_memory.adapters.stores.sqlite.store import open_sqlite

__all__ = [
    "SqliteBuffers",
    "SqliteFacts",
    "SqliteRanking",
    "SqliteRevisions",
    "SqliteSessions",
    "open_sqlite",
]
