"""Semantic ranking: sync the visible partitions, then rank them in memory.

Syncing, the scan and any re-scoring of close calls happen in one read transaction, so the
ranking is that of one snapshot of the file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import finite
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.fact_reads import visible_partitions
from eden_memory.adapters.stores.sqlite.space import holds_facts
from eden_memory.adapters.stores.sqlite.vector_index import VectorIndex
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility


def semantic_ranking(
    conn: sqlite3.Connection,
    index: VectorIndex,
    vector: Sequence[float],
    visibility: FactVisibility,
    limit: int,
    space: EmbeddingSpace,
) -> list[Hit]:
    parts = visible_partitions(visibility)
    if not parts or limit <= 0:
        return []
    with transaction(conn, write=False):
        stored = index.sync(conn, parts)
        if stored is None or (stored != space and not holds_facts(conn)):
            return []  # no space yet, or an emptied store's former one: any query ranks nothing
        stored.require_same(space)
        space.check_vector(len(vector))
        query = finite(vector)
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []  # a zero vector has no direction: no cosine to rank by
        ranked = index.top(conn, query / norm, parts, limit)
    return [Hit(FactId(fact_id), score) for fact_id, score in ranked]
