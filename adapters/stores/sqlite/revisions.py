"""Counters that tell other readers what changed: scope revisions and the fact sequence.

Every write transaction records what it touched in a ``Changes`` and flushes it before
committing, so a counter moves in the same transaction as the change it announces:

* ``scope_state.revision``, one per scope key, moves on any change to the key's facts,
  reflections or blob; context caches compare it.
* ``counters.fact_seq`` is a global sequence stamped on every fact row written and on the
  tombstone of every fact removed from a partition; ``scope_state.fact_seq`` is the last
  stamp of the partition. A vector index that synced a partition up to stamp s fetches
  exactly the rows and tombstones stamped after s, whoever wrote them.

``counters.fact_partitions`` (schema versions 1 to 9) is no longer kept: only keyword search
read it, and it reads by partition since version 10. Files keep its row, unread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import as_int
from eden_memory.adapters.stores.sqlite.vectors.log_appends import Added
from eden_memory.adapters.stores.sqlite.vectors.log_writes import VectorLogWriter
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix
from eden_memory.domain.embedding_space import EmbeddingSpace

# Write transactions whose tombstones are kept. A vector index that has not synced a
# partition for longer than this reloads the partition instead of replaying its changes.
TOMBSTONES_KEPT = 100_000


class Changes:
    """What one write transaction touched; counters are bumped once per key on ``flush``,
    and the vector logs of the partitions it touched follow through ``logs``."""

    def __init__(self, conn: sqlite3.Connection, logs: VectorLogWriter) -> None:
        self._conn = conn
        self._logs = logs
        self._seq: int | None = None
        self._keys: set[KeyCols] = set()
        self._fact_keys: set[KeyCols] = set()
        self._added: dict[KeyCols, Added] = {}  # active facts inserted, with their rows
        self._rewritten: set[KeyCols] = set()  # partitions changed otherwise
        self._tombstoned = False
        self.space: EmbeddingSpace | None = None  # the store's, when the write read it

    @property
    def seq(self) -> int:
        """This transaction's fact stamp, drawn on first use."""
        if self._seq is None:
            (value,) = self._conn.execute(
                "UPDATE counters SET value = value + 1 WHERE name = 'fact_seq' RETURNING value"
            ).fetchone()
            self._seq = as_int(value, "counters", "fact_seq")
        return self._seq

    def memory(self, key: KeyCols) -> None:
        """A reflection or blob of ``key`` changed."""
        self._keys.add(key)

    def facts(self, key: KeyCols) -> int:
        """A fact of ``key`` changed; returns the stamp to write on its row."""
        self._rewritten.add(key)
        return self._touch(key)

    def added(self, key: KeyCols, ids: list[str], rows: Matrix) -> int:
        """Active facts ``ids`` were inserted into ``key`` with these float32 ``rows``: the
        partition's vector logs append them from here, without reading them back."""
        self._added.setdefault(key, Added()).extend(ids, rows)
        return self._touch(key)

    def _touch(self, key: KeyCols) -> int:
        self._keys.add(key)
        self._fact_keys.add(key)
        return self.seq

    def tombstone(self, key: KeyCols, fact_id: str) -> None:
        """A fact left the partition ``key`` (deleted, or moved to another key)."""
        self._conn.execute(
            "INSERT INTO fact_tombstones VALUES (?, ?, ?, ?, ?)", (*key, self.facts(key), fact_id)
        )
        self._tombstoned = True

    def flush(self) -> None:
        fact_seq = self._seq or 0
        if self._tombstoned:
            _prune_tombstones(self._conn, fact_seq - TOMBSTONES_KEPT)
        if fact_seq:
            fact_keys = [key for key in self._keys if key[1] != "session"]
            before = fact_seqs(self._conn, fact_keys)
            touched = {key: before.get(key, 0) for key in self._fact_keys}
            added = {k: v for k, v in self._added.items() if k not in self._rewritten}
            self._logs.follow(self._conn, touched, fact_seq, added, self.space)
        self._conn.executemany(
            "INSERT INTO scope_state (agent_id, scope, owner, revision, fact_seq) "
            "VALUES (?, ?, ?, 1, ?) ON CONFLICT (agent_id, scope, owner) DO UPDATE SET "
            "revision = revision + 1, fact_seq = max(fact_seq, excluded.fact_seq)",
            [(*key, fact_seq) for key in self._keys],
        )


def _prune_tombstones(conn: sqlite3.Connection, floor: int) -> None:
    """Forget tombstones stamped before ``floor``; an index synced earlier must reload."""
    if floor <= 0:
        return
    conn.execute("DELETE FROM fact_tombstones WHERE seq < ?", (floor,))
    conn.execute(
        "UPDATE counters SET value = max(value, ?) WHERE name = 'tombstone_floor'", (floor,)
    )


@contextmanager
def writing(conn: sqlite3.Connection, logs: VectorLogWriter) -> Iterator[Changes]:
    """A write transaction (``BEGIN IMMEDIATE``) whose counters and vector logs move with its
    changes."""
    with transaction(conn, write=True):
        changes = Changes(conn, logs)
        yield changes
        changes.flush()


def fact_seqs(conn: sqlite3.Connection, keys: Iterable[KeyCols]) -> dict[KeyCols, int]:
    """The last fact stamp of each partition (0 when it never had a fact)."""
    out: dict[KeyCols, int] = {}
    for key in keys:
        row = conn.execute(
            "SELECT fact_seq FROM scope_state WHERE agent_id = ? AND scope = ? AND owner = ?", key
        ).fetchone()
        out[key] = as_int(row[0], "scope_state", key) if row else 0
    return out


def tombstone_floor(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM counters WHERE name = 'tombstone_floor'").fetchone()
    return as_int(row[0], "counters", "tombstone_floor")
