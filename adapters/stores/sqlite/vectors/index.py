"""Exact cosine search over the visible partitions, kept in memory and in step with the file.

Vectors are cached per (agent, scope, owner) partition, so a search for (agent A, user U)
scores the query against exactly A's agent partition and (A, U)'s user partition: the
filter is applied before ranking, and the work is one scan per partition plus an
``argpartition`` for the top k. With a half-precision scan (``scan``), every row scoring
within twice the scan's error bound of the k-th best is re-scored in float32 from the fact
rows, so the ranking and the scores returned are those of an exact float32 scan.

Staying correct when other connections write: before each search, the partitions involved
are synced inside the search's read transaction. Each partition remembers the fact stamp it
has seen (``revisions`` explains the stamps); a primary-key lookup tells whether the file has
a newer one, and then only the rows and tombstones stamped after it are read. Writes made by
this process and by any other are picked up the same way; an unchanged partition costs one
lookup (with the space and the tombstone floor, ~0.02 ms a search). This is finer than
``PRAGMA data_version``, which says only that *something* changed, not which partition.
A partition synced before the oldest kept tombstone, or a change of embedding space, means a
full reload. The index is used by one thread only (the store's searcher): it needs no lock.

Loading a partition reads its vector log when it has a usable one of the index's type
(``log_reads``): the log's rows as of its stamp, then the changes after that stamp as
above. A partition read from the fact rows instead (no log, another space, damage), or whose
log is mostly dead rows, is noted in ``wants`` (``mend_wants``), for the store's vector log
writer to build or compact its log (``log_writes.VectorLogWriter``); the index writes nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import cast

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import KeyCols, rows_by_ids
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_text, vector_rows
from eden_memory.adapters.stores.sqlite.revisions import fact_seqs, tombstone_floor
from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vectors import log_reads
from eden_memory.adapters.stores.sqlite.vectors.mend_wants import MendWants
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix, Partition, Rows, unit_rows
from eden_memory.adapters.stores.sqlite.vectors.scan import SingleScan, VectorScan
from eden_memory.domain.embedding_space import EmbeddingSpace

_WHERE = "agent_id = ? AND scope = ? AND owner = ?"
_LOAD_BLOCK = 4096
# A log is compacted once its dead rows (replaced or removed) outnumber its live ones by this
# many: the dead rows cost a read each time the store opens.
COMPACT_SLACK = 4096


class VectorIndex:
    def __init__(self, scan: VectorScan | None = None, wants: MendWants | None = None) -> None:
        self.scan = scan or SingleScan()
        self.dtype = np.dtype(self.scan.dtype).name
        self._space: EmbeddingSpace | None = None
        self._parts: dict[KeyCols, Partition] = {}
        self.wants = wants or MendWants()  # the logs for the writer to mend

    def sync(self, conn: sqlite3.Connection, keys: Sequence[KeyCols]) -> EmbeddingSpace | None:
        """Bring these partitions up to the file's state (call inside a read transaction)."""
        space = read_space(conn)
        if space != self._space:
            self._space, self._parts = space, {}
            self.wants.clear()
        if space is None:
            return None
        floor = tombstone_floor(conn)
        for key, seq in fact_seqs(conn, keys).items():
            part = self._parts.get(key)
            if part is None or part.synced_seq < floor:  # its removals may be forgotten
                self._parts[key] = self._load(conn, key, space, seq)
            elif part.synced_seq != seq:
                _apply_changes(conn, key, space, part, seq)
        return space

    def top(
        self, conn: sqlite3.Connection, query: Matrix, keys: Sequence[KeyCols], limit: int
    ) -> list[tuple[str, float]]:
        """The ``limit`` best (id, cosine) of these partitions; ``query`` must be unit length.

        Call inside the read transaction of ``sync``: re-scoring reads vectors from ``conn``.
        """
        parts = [self._parts[k] for k in keys if k in self._parts and self._parts[k].size]
        if not parts or limit <= 0:
            return []
        nbytes = sum(p.matrix.nbytes for p in parts)
        scores = np.concatenate([self.scan.scores(p.matrix, query, nbytes) for p in parts])
        margin = 2 * self.scan.error(len(query))
        if limit >= len(scores):
            best = np.arange(len(scores))
        elif margin == 0:
            best = np.argpartition(-scores, limit - 1)[:limit]
        else:  # every row that could be in the top ``limit`` once scored exactly
            kth = -np.partition(-scores, limit - 1)[limit - 1]
            best = np.flatnonzero(scores >= kth - margin)
        # Map positions back to (partition, row) without building a list of every id.
        starts = np.cumsum([0] + [p.size for p in parts])
        owner = np.searchsorted(starts, best, side="right") - 1
        ids = [
            parts[o].ids[i - starts[o]] for i, o in zip(best.tolist(), owner.tolist(), strict=True)
        ]
        found = scores[best] if margin == 0 else _exact_scores(conn, ids, query)
        order = np.argsort(-found, kind="stable")[:limit]
        return [(ids[i], float(found[i])) for i in order.tolist()]

    def clear(self) -> None:
        self._space, self._parts = None, {}
        self.wants.clear()

    def _load(
        self, conn: sqlite3.Connection, key: KeyCols, space: EmbeddingSpace, seq: int
    ) -> Partition:
        """From the partition's log if usable, else from the rows (and noted to mend)."""
        row, log = log_reads.load(conn, key, self.dtype, space, seq)
        if row is None or log is None:
            part = _load(conn, key, space, seq, self.scan.dtype)
            if part.size:
                self.wants.add(key, None)
            return part
        part = Partition(row.seq, log.ids, log.rows)
        if row.seq != seq:
            _apply_changes(conn, key, space, part, seq)
        if log.written > 2 * part.size + COMPACT_SLACK:
            self.wants.add(key, log.written)
        return part


def _exact_scores(conn: sqlite3.Connection, ids: list[str], query: Matrix) -> Matrix:
    """float32 cosines of these facts' stored vectors with ``query`` (a unit vector)."""
    blobs = dict(rows_by_ids(conn, "SELECT id, vector FROM facts WHERE id IN ({ids})", ids))
    if (missing := next((i for i in ids if i not in blobs), None)) is not None:
        # Synced in this transaction, the index holds only what the table holds; unless the
        # table lost a row to damage.
        raise Undecodable("facts", missing, "the vector index holds it, the table does not")
    scores: Matrix = _unit_rows_of(ids, [blobs[i] for i in ids], len(query)) @ query
    return scores


def _unit_rows_of(ids: Sequence[str], blobs: Sequence[bytes], dim: int) -> Matrix:
    """Stored vector blobs as a new float32 matrix of unit rows."""
    return unit_rows(vector_rows(ids, blobs, dim).copy())


def _load(
    conn: sqlite3.Connection,
    key: KeyCols,
    space: EmbeddingSpace,
    seq: int,
    dtype: type[np.floating],
) -> Partition:
    """Read a whole partition, a block of rows at a time (at most one block of blobs and the
    matrix are in memory at once)."""
    cursor = conn.execute(
        f"SELECT id, vector FROM facts WHERE {_WHERE} AND status = 'active' "
        "AND vec_model = ? AND vec_dim = ?",
        (*key, space.model, space.dimension),
    )
    ids: list[str] = []
    blocks: list[Rows] = [np.zeros((0, space.dimension), dtype=dtype)]
    while rows := cursor.fetchmany(_LOAD_BLOCK):
        block_ids = [as_text(row[0], "facts", row[0]) for row in rows]
        ids.extend(block_ids)
        block = _unit_rows_of(block_ids, [row[1] for row in rows], space.dimension)
        blocks.append(block.astype(dtype, copy=False))
    return Partition(seq, ids, cast(Rows, np.concatenate(blocks)))


def _apply_changes(
    conn: sqlite3.Connection, key: KeyCols, space: EmbeddingSpace, part: Partition, seq: int
) -> None:
    """Replay what happened after ``part.synced_seq``: removals first, then current rows."""
    since = (*key, part.synced_seq)
    for (fact_id,) in conn.execute(
        f"SELECT fact_id FROM fact_tombstones WHERE {_WHERE} AND seq > ?", since
    ):
        part.remove(fact_id)
    rows = conn.execute(
        f"SELECT id, status, vec_model, vec_dim, vector FROM facts WHERE {_WHERE} AND seq > ?",
        since,
    )
    for fact_id, status, model, dim, blob in rows:
        if status == "active" and model == space.model and dim == space.dimension:
            part.upsert(as_text(fact_id, "facts", fact_id), vector_rows([fact_id], [blob], dim)[0])
        else:
            part.remove(fact_id)
    part.synced_seq = seq
