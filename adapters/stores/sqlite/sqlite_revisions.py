"""``SqliteRevisions``: the ``RevisionStore`` port on the store file.

The change counter of each scope key (what the context cache checks; ``revisions`` moves it
in every write), the erasure of a whole key (its facts, reflections and blob in one
transaction), and the scrub after an erasure. The writer deletes with ``secure_delete`` on,
so SQLite zeroes the content it frees; three places still hold removed text or vectors after
that: the keyword index (FTS5 marks an entry deleted and keeps it in its segments until they
merge), the vector logs (a removed fact's row stays in an older chunk until the log is
compacted) and the write-ahead log (page images of earlier transactions). ``scrub`` merges
the index, compacts every vector log, and checkpoints the write-ahead log to an empty file.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite.codec import key_cols
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import as_int
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.keyword import partitions as keyword_partitions
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_writer
from eden_memory.domain.scopes import ScopeKey

_KEY = "agent_id = ? AND scope = ? AND owner = ?"
_CHECKPOINT_TRIES = 20


class SqliteRevisions:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    @on_reader
    def revisions(self, conn: sqlite3.Connection, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        """Every asked key, 0 for a key that never changed."""
        out: dict[ScopeKey, int] = {}
        for key in keys:
            row = conn.execute(
                f"SELECT revision FROM scope_state WHERE {_KEY}", key_cols(key)
            ).fetchone()
            out[key] = as_int(row[0], "scope_state", key_cols(key)) if row else 0
        return out

    @on_writer
    def delete_scope(self, conn: sqlite3.Connection, key: ScopeKey) -> int:
        """Remove every fact, reflection and blob of one key; the revision moves on."""
        cols = key_cols(key)
        with self._handle.writing(conn) as changes:
            changes.memory(cols)
            for (fact_id,) in conn.execute(f"SELECT id FROM facts WHERE {_KEY}", cols).fetchall():
                changes.tombstone(cols, fact_id)
            removed = 0
            for table in ("facts", "reflections", "consolidated"):
                removed += conn.execute(f"DELETE FROM {table} WHERE {_KEY}", cols).rowcount
            return removed

    async def scrub(self) -> None:
        await self._scrub_file()
        # This process's copy of the vectors too (the index lives on the searcher's thread).
        await self._handle.searcher.run(lambda _: self._handle.index.clear())

    @on_writer
    def _scrub_file(self, conn: sqlite3.Connection) -> None:
        with transaction(conn, write=True):
            keyword_partitions.optimize(conn)
            self._handle.vector_logs.compact_all(conn)
        for _ in range(_CHECKPOINT_TRIES):  # a reader's open snapshot can hold the log a moment
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            time.sleep(0.05)
