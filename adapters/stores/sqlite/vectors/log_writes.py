"""The writer's side of the vector logs: every log row and chunk is written here.

Runs on the store's writer, inside its write transactions, so a log moves with the facts it
follows. ``follow`` appends what a write changed to each log of the partitions it touched
(``revisions.Changes.flush``), starting a new partition's log in the writer's type and
emptying the logs of a partition left without an active fact. ``mend`` builds or compacts
one log when a search asks (``log_reads``), ``compact_all`` compacts every log for an
erasure's scrub. The chunks are appended by ``log_appends`` and written whole by
``log_builds``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import Undecodable
from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vectors.chunks import DamagedChunk, Entry
from eden_memory.adapters.stores.sqlite.vectors.log_appends import append, changes_since
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
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix, Rows, unit_rows
from eden_memory.domain.embedding_space import EmbeddingSpace


@dataclass
class Added:
    """Active facts a write inserted into one partition, with their float32 rows."""

    ids: list[str] = field(default_factory=list)
    parts: list[Matrix] = field(default_factory=list)

    def extend(self, ids: list[str], rows: Matrix) -> None:
        self.ids.extend(ids)
        self.parts.append(rows)

    def entry(self, dtype: type[np.floating]) -> Entry:
        """Unit rows in the log's type, as ``changes_since`` would read them back."""
        joined = np.concatenate(self.parts) if len(self.parts) > 1 else self.parts[0].copy()
        rows: Rows = unit_rows(joined).astype(dtype)
        return Entry([], self.ids, rows)


def follow(
    conn: sqlite3.Connection,
    dtype: str | None,
    before: Mapping[KeyCols, int],
    seq: int,
    added: Mapping[KeyCols, Added] | None = None,
    space: EmbeddingSpace | None = None,
) -> None:
    """Append this transaction's changes to the logs of the partitions it touched.

    ``dtype``: the type a new partition's log starts in (None: none starts). ``before``: each
    touched partition's stamp before the transaction (0: it never held a fact). ``added``:
    the partitions this transaction only inserted active facts into, with those facts' rows.
    ``space``: the store's, if the caller knows it. Call inside the transaction.
    """
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


def mend(conn: sqlite3.Connection, key: KeyCols, dtype: str, seen: int | None) -> None:
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


def compact_all(conn: sqlite3.Connection) -> None:
    """Compact every log, so no removed fact's vector stays in a chunk (call in a write
    transaction). A log that does not decode is dropped."""
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
