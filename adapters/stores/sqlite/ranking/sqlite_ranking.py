"""``SqliteRanking``: the ``FactRanking`` port on the store file.

Semantic ranking is an exact scan of the in-memory vector index on the searcher, which
brings the visible partitions up to date from the file's change log first (so writes by this
process and by others are seen alike; ``vectors.index``); syncing, the scan and any
re-scoring of close calls happen in one read transaction, so the ranking is that of one
snapshot of the file. A partition the index had to read from the fact rows is noted for the
store's vector log writer to mend (``vectors.log_writes``): a search writes nothing. Keyword
ranking is FTS5's BM25 over the visible partitions' rowid ranges, its query and scoring
rules in ``keyword.scoring``.
"""

from __future__ import annotations

import sqlite3

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import finite
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import as_text
from eden_memory.adapters.stores.sqlite.fact_reads import visible_partitions
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.keyword import scoring as keyword
from eden_memory.adapters.stores.sqlite.keyword.partitions import partition_numbers, rowid_ranges
from eden_memory.adapters.stores.sqlite.space import holds_facts
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_searcher
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import Vector


class SqliteRanking:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    @property
    def text_score_threshold(self) -> float:
        return keyword.TEXT_SCORE_THRESHOLD

    @on_reader
    def keyword_ranking(
        self, conn: sqlite3.Connection, text: str, visibility: FactVisibility, limit: int
    ) -> list[Hit]:
        parts = visible_partitions(visibility)
        if not parts or limit <= 0:
            return []
        with transaction(conn, write=False):  # the statistics and the query see one snapshot
            indexed = keyword.indexed_facts(conn)
            words = keyword.informative(conn, keyword.query_words(text), indexed)
            query = keyword.fts_query(words)
            ranges = rowid_ranges(partition_numbers(conn, parts))
            if query is None or not ranges:
                return []
            try:
                rows = conn.execute(*keyword.ranked_sql(query, ranges, limit)).fetchall()
            except sqlite3.OperationalError as exc:
                if "fts5" in str(exc).lower() or "syntax" in str(exc).lower():
                    return []  # a query the sanitiser let through must not fail a search
                raise
            ideal = keyword.ideal_score(conn, text, words, indexed) if rows else 0.0
        lift = keyword.small_store_lift(indexed)
        scored = [(fact_id, keyword.sound_score(score)) for fact_id, score in rows]
        return [
            Hit(
                FactId(as_text(fact_id, "facts", fact_id)),
                score * lift,
                keyword.coverage(score, ideal),
            )
            for fact_id, score in scored
        ]

    @on_searcher
    def semantic_ranking(
        self,
        conn: sqlite3.Connection,
        vector: Vector,
        visibility: FactVisibility,
        limit: int,
        *,
        space: EmbeddingSpace,
    ) -> list[Hit]:
        parts = visible_partitions(visibility)
        if not parts or limit <= 0:
            return []
        index = self._handle.index
        with transaction(conn, write=False):
            stored = index.sync(conn, parts)
            if stored is None or (stored != space and not holds_facts(conn)):
                return []  # no space yet, or an emptied store's former one: nothing to rank
            stored.require_same(space)
            space.check_vector(len(vector))
            query = finite(vector)
            norm = float(np.linalg.norm(query))
            if norm == 0.0:
                return []  # a zero vector has no direction: no cosine to rank by
            ranked = index.top(conn, query / norm, parts, limit)
        return [Hit(FactId(fact_id), score) for fact_id, score in ranked]
