"""The writer's side: a log written whole, from the fact rows or from its own live rows.

``build`` writes a partition's log anew from the fact rows, which hold every vector in
float32 (a log missing for a search's type, of another space, or damaged; the upgrade to
schema version 11). ``compact`` rewrites a log as its live rows only, dropping the rows that
deletions and edits left behind (a log mostly dead, and every log on ``scrub``, so that an
erased fact's vector does not stay in an old chunk). Each is a delete and an insert in the
caller's write transaction, reading a chunk (``CHUNK_ROWS`` rows) at a time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from typing import cast

import numpy as np
import numpy.typing as npt

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.decoding import as_text, vector_rows
from eden_memory.adapters.stores.sqlite.vectors.chunks import (
    CHUNK_ROWS,
    DamagedChunk,
    Entry,
    decode_ids,
    decode_rows,
    live_rows,
    writable_ids,
)
from eden_memory.adapters.stores.sqlite.vectors.logs import (
    WHERE_KEY,
    WHERE_LOG,
    LogRow,
    drop,
    empty_log,
    insert_chunk,
    partition_seq,
    save_row,
)
from eden_memory.adapters.stores.sqlite.vectors.partition import Rows, unit_rows
from eden_memory.domain.embedding_space import EmbeddingSpace

Positions = npt.NDArray[np.int64]


def build(conn: sqlite3.Connection, key: KeyCols, dtype: str, space: EmbeddingSpace) -> None:
    """The partition's log of ``dtype`` written anew from its active facts of ``space``."""
    drop(conn, (*key, dtype))
    row = empty_log(key, dtype, space, partition_seq(conn, key))
    cursor = conn.execute(
        f"SELECT id, vector FROM facts WHERE {WHERE_KEY} AND status = 'active' "
        "AND vec_model = ? AND vec_dim = ?",
        (*key, space.model, space.dimension),
    )
    while found := cursor.fetchmany(CHUNK_ROWS):
        ids = [as_text(r[0], "facts", r[0]) for r in found]
        if not writable_ids(ids):
            drop(conn, row.log)
            return
        flat = vector_rows(ids, [r[1] for r in found], space.dimension).copy()
        row = _written(conn, row, Entry([], ids, unit_rows(flat).astype(row.type)))
    save_row(conn, row)


def compact(conn: sqlite3.Connection, row: LogRow) -> None:
    """Rewrite the log as its live rows, unless every row in it is live."""
    try:
        order, sizes, removals = _ids(conn, row)
        keep = live_rows(order, removals)
        if len(keep) == len(order):
            return
        _rewrite(conn, row, [order[i] for i in keep.tolist()], _live_blocks(conn, row, sizes, keep))
    except DamagedChunk:
        drop(conn, row.log)  # the next search reads the fact rows, and has it built


def _ids(
    conn: sqlite3.Connection, row: LogRow
) -> tuple[list[str], list[int], list[tuple[int, list[str]]]]:
    """Every row's id in log order, each chunk's row count, and the removals (rows before,
    ids): no vector is read."""
    order: list[str] = []
    sizes: list[int] = []
    removals: list[tuple[int, list[str]]] = []
    for removed, ids in conn.execute(
        f"SELECT removed, ids FROM vector_chunks WHERE {WHERE_LOG} ORDER BY chunk_no", row.log
    ):
        if gone := decode_ids(removed):
            removals.append((len(order), gone))
        written = decode_ids(ids)
        order.extend(written)
        sizes.append(len(written))
    if len(order) != row.written or len(sizes) != row.chunks:
        raise DamagedChunk("the chunks are not those their log counts")
    return order, sizes, removals


def _rewrite(conn: sqlite3.Connection, row: LogRow, ids: list[str], blocks: Iterator[Rows]) -> None:
    """``ids`` and their rows (in blocks of ``CHUNK_ROWS``) as new chunks after the old ones,
    then the old ones deleted and the new ones numbered from 0."""
    old = row.chunks
    fresh = replace(row, chunks=old, written=0)
    for start in range(0, len(ids), CHUNK_ROWS):
        fresh = _written(conn, fresh, Entry([], ids[start : start + CHUNK_ROWS], next(blocks)))
    conn.execute(f"DELETE FROM vector_chunks WHERE {WHERE_LOG} AND chunk_no < ?", (*row.log, old))
    conn.execute(
        f"UPDATE vector_chunks SET chunk_no = chunk_no - ? WHERE {WHERE_LOG}", (old, *row.log)
    )
    save_row(conn, replace(fresh, chunks=fresh.chunks - old))


def _live_blocks(
    conn: sqlite3.Connection, row: LogRow, sizes: list[int], keep: Positions
) -> Iterator[Rows]:
    """The rows at ``keep`` (positions in log order), in blocks of ``CHUNK_ROWS``, reading
    one old chunk at a time."""
    pending: list[Rows] = []
    held = at = 0
    for no, count in enumerate(sizes):
        (blob,) = conn.execute(
            f"SELECT rows FROM vector_chunks WHERE {WHERE_LOG} AND chunk_no = ?", (*row.log, no)
        ).fetchone()
        rows = decode_rows(blob, count, row.dim, row.type)
        lo, hi = np.searchsorted(keep, [at, at + count])
        pending.append(rows[keep[lo:hi] - at])
        held, at = held + int(hi - lo), at + count
        while held >= CHUNK_ROWS:
            joined = cast(Rows, np.concatenate(pending))
            yield joined[:CHUNK_ROWS]
            pending, held = [joined[CHUNK_ROWS:]], held - CHUNK_ROWS
    if held:
        yield cast(Rows, np.concatenate(pending))


def _written(conn: sqlite3.Connection, row: LogRow, entry: Entry) -> LogRow:
    insert_chunk(conn, row, row.chunks, entry)
    return replace(row, chunks=row.chunks + 1, written=row.written + len(entry.ids))
