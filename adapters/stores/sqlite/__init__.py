"""The embedded store: one SQLite file on local disk, FTS5 keyword search, exact vector search.

It needs only the standard library and numpy (the ``embedded`` extra), so a host gets a
persistent memory with no server to run.
"""

from eden_memory.adapters.stores.sqlite.store import SqliteStore

__all__ = ["SqliteStore"]
