"""``VectorLogWriter``: the one writer of the vector logs; every log row and chunk is written here.

The store's handle owns one, and every write reaches the logs through it, on the writer's
thread: ``follow`` appends what a write transaction changed to each log of the partitions it
touched (``revisions.Changes.flush``, in the same transaction), starting a new partition's log
in the writer's type and emptying the logs of a partition left without an active fact;
``mend_wanted`` builds or compacts the logs a search found lacking (``mend_wants``), after a
write has committed and on close, each in a transaction of its own; ``compact_all`` compacts
every log for an erasure's scrub. The chunks are appended by ``log_appends`` and written
whole by ``log_builds``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from contextlib import suppress

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import Undecodable
from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vectors.chunks import DamagedChunk
from eden_memory.adapters.stores.sqlite.vectors.log_appends import Added, append, changes_since
from eden_memory.adapters.stores.sqlite.vectors.log_builds import build, compact
from eden_memory.adapters.stores.sqlite.vectors.logs import (
    WHERE_KEY,
    LogRow,
    delete_chunks,
    drop,
    empty_log,
    every_log,
    log_row,
    logs_of,
    partition_seq,
    save_row,
    usable,
)
from eden_memory.adapters.stores.sqlite.vectors.mend_wants import MendWants
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import StoreError


class VectorLogWriter:
    """``dtype``: the type a new partition's log starts in, the searcher's (None: none
    starts, existing logs are still followed). ``wants``: shared with the searcher's index."""

    def __init__(self, dtype: str | None, wants: MendWants | None = None) -> None:
        self.dtype = dtype
        self.wants = wants or MendWants()

    def follow(
        self,
        conn: sqlite3.Connection,
        before: Mapping[KeyCols, int],
        seq: int,
        added: Mapping[KeyCols, Added] | None = None,
        space: EmbeddingSpace | None = None,
    ) -> None:
        """Append this transaction's changes to the logs of the partitions it touched.

        ``before``: each touched partition's stamp before the transaction (0: it never held
        a fact). ``added``: the partitions this transaction only inserted active facts into,
        with those facts' rows. ``space``: the store's, if the caller knows it. Call inside
        the transaction.
        """
        _follow(conn, self.dtype, before, seq, added, space)

    def mend_wanted(self, conn: sqlite3.Connection) -> None:
        """Build or compact the logs a search found missing or mostly dead (in the writer's
        type, the searcher's). The logs follow the fact rows: a failure leaves the rows to be
        read again next time, never an error. Call outside a transaction."""
        if self.dtype is None:
            return
        for key, seen in self.wants.take():
            with suppress(sqlite3.Error, StoreError, UnicodeDecodeError):
                _mend(conn, key, self.dtype, seen)

    def compact_all(self, conn: sqlite3.Connection) -> None:
        """Compact every log, so no removed fact's vector stays in a chunk (call in a write
        transaction). A log that does not decode is dropped."""
        _compact_all(conn)


def _follow(
    conn: sqlite3.Connection,
    dtype: str | None,
    before: Mapping[KeyCols, int],
    seq: int,
    added: Mapping[KeyCols, Added] | None = None,
    space: EmbeddingSpace | None = None,
) -> None:
    added = added or {}
    for key, old_seq in before.items():
        logs = _logs(conn, key)
        if not logs and (old_seq or dtype is None):
            continue
        space = space or read_space(conn)
        if space is None:
            continue
        if dtype is not None and old_seq == 0 and not any(r.dtype == dtype for r in logs):
            logs.append(empty_log(key, dtype, space, 0))
        new = added.get(key)
        if new is None and not _holds_active(conn, key):  # no vector stays behind
            for row in logs:
                delete_chunks(conn, row)
                save_row(conn, empty_log(key, row.dtype, space, seq))
            continue
        for row in logs:
            _follow_one(conn, row, space, (old_seq, seq), new)


def _follow_one(
    conn: sqlite3.Connection,
    row: LogRow,
    space: EmbeddingSpace,
    seqs: tuple[int, int],
    new: Added | None,
) -> None:
    """``seqs``: the partition's stamp before this transaction, and this transaction's."""
    done: LogRow | None = None
    if usable(conn, row, space, seqs[0]):
        fresh = new is not None and row.seq == seqs[0]  # the rows the write holds are all
        try:
            entry = new.entry(row.type) if new and fresh else changes_since(conn, row)
            done = append(conn, row, seqs[1], entry)
        except DamagedChunk:
            done = None
    if done is None:
        drop(conn, row.log)  # a search reads the fact rows, and has it built


def _mend(conn: sqlite3.Connection, key: KeyCols, dtype: str, seen: int | None) -> None:
    """What a search asked for the partition's log of ``dtype``, in one write transaction:
    built from the fact rows (``seen`` None: the search found none it could use), or
    compacted (``seen``: the rows the search found in it; skipped if another process
    compacted it meanwhile)."""
    with transaction(conn, write=True):
        space = read_space(conn)
        if space is None:
            return
        if seen is None:
            build(conn, key, dtype, space)
            return
        try:
            row = log_row(conn, key, dtype)
        except Undecodable:
            row = None
        if row is None or not usable(conn, row, space, partition_seq(conn, key)):
            build(conn, key, dtype, space)
        elif row.written >= seen:
            compact(conn, row)


def _compact_all(conn: sqlite3.Connection) -> None:
    try:
        rows = every_log(conn)
    except Undecodable:
        conn.execute("DELETE FROM vector_chunks")
        conn.execute("DELETE FROM vector_logs")
        return
    for row in rows:
        compact(conn, row)


def _logs(conn: sqlite3.Connection, key: KeyCols) -> list[LogRow]:
    """The partition's logs; if one does not decode, all of them are dropped."""
    try:
        return logs_of(conn, key)
    except Undecodable:
        conn.execute(f"DELETE FROM vector_chunks WHERE {WHERE_KEY}", key)
        conn.execute(f"DELETE FROM vector_logs WHERE {WHERE_KEY}", key)
        return []


def _holds_active(conn: sqlite3.Connection, key: KeyCols) -> bool:
    found = conn.execute(
        f"SELECT EXISTS (SELECT 1 FROM facts WHERE {WHERE_KEY} AND status = 'active')", key
    ).fetchone()
    return bool(found[0])
