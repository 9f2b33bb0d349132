"""Semantic search: sync the visible partitions, rank them in memory, read the winners.

Everything happens in one read transaction, so the ranked ids and the facts returned come
from the same snapshot of the file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import finite
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.fact_reads import Parse, get_facts, visible_partitions
from eden_memory.adapters.stores.sqlite.fact_rows import fact_from_row
from eden_memory.adapters.stores.sqlite.vector_index import VectorIndex
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import FactHit


def semantic_search(
    conn: sqlite3.Connection,
    index: VectorIndex,
    vector: Sequence[float],
    visibility: FactVisibility,
    limit: int,
    parse: Parse = fact_from_row,
) -> list[FactHit]:
    parts = visible_partitions(visibility)
    if not parts or limit <= 0:
        return []
    with transaction(conn, write=False):
        space = index.sync(conn, parts)
        if space is None:
            return []
        space.check_vector(len(vector))
        query = finite(vector)
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []  # a zero vector has no direction: no cosine to rank by
        ranked = index.top(query / norm, parts, limit)
        found = get_facts(conn, [fact_id for fact_id, _ in ranked], parse)
    facts: dict[str, Fact] = {f.id: f for f in found}
    return [FactHit(facts[i], score) for i, score in ranked if i in facts]
