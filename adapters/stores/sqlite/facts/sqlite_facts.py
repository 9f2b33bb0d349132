"""``SqliteFacts``: the ``FactStore`` port on the store file.

Writes run on the writer, each one write transaction (which also appends the vectors to the
partitions' logs and counts the change, which the ranking's index reads back); reads run on
the reader, through its cache of parsed facts. Visibility is the domain's rule turned into
the partitions a viewer may see (``fact_reads``); every query is restricted to them in SQL,
before ordering or limiting.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite.codec import (
    KeyCols,
    chunks,
    finite,
    key_cols,
    placeholders,
    rows_by_ids,
    to_us,
    vector_blob,
)
from eden_memory.adapters.stores.sqlite.decoding import as_int, as_text, decoding, vector_rows
from eden_memory.adapters.stores.sqlite.fact_reads import partition_filter, visible_partitions
from eden_memory.adapters.stores.sqlite.facts.adds import add_all, add_one
from eden_memory.adapters.stores.sqlite.facts.cache import FactCache
from eden_memory.adapters.stores.sqlite.facts.edits import keep_store_fields, refuse_duplicate
from eden_memory.adapters.stores.sqlite.facts.origins import (
    CHECKED_ORIGINS,
    SELECT_ORIGINS,
    not_json,
    origin,
)
from eden_memory.adapters.stores.sqlite.facts.queries import held_among, listing_sql
from eden_memory.adapters.stores.sqlite.facts.rows import (
    FACT_COLUMNS,
    fact_key,
    fetch_fact,
    index_added,
    index_keywords,
    last_pk,
    rewrite_fact,
)
from eden_memory.adapters.stores.sqlite.facts.supersession import add_item
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.owners import ids_from
from eden_memory.adapters.stores.sqlite.space import (
    admit_space,
    batch_space,
    current_space,
    fact_space,
    write_space,
)
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_writer
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FACT_SCOPES, FactVisibility, Scope, ScopeKey
from eden_memory.domain.supersession import Supersession
from eden_memory.ports.stores import FactOrigin, FactQuery, Superseding, Vector


class SqliteFacts:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle
        self._parse = FactCache().fact  # used on the reader's thread only

    @on_reader
    def embedding_space(self, conn: sqlite3.Connection) -> EmbeddingSpace | None:
        return current_space(conn)

    @on_writer
    def add_facts(
        self, conn: sqlite3.Connection, facts: Sequence[Fact], vectors: Sequence[Vector]
    ) -> list[Fact]:
        if not facts:
            return []
        space = batch_space(facts, vectors)
        rows = finite(vectors)  # one conversion for the batch (all of one dimension)
        with self._handle.writing(conn) as changes:
            admit_space(conn, space)
            changes.space = space  # admitted: the store's
            after = last_pk(conn)
            if add_all(conn, changes, facts, rows):
                index_added(conn, after, facts)
                return list(facts)
            stored = [add_one(conn, changes, f, rows[i : i + 1]) for i, f in enumerate(facts)]
            index_keywords(conn, after)
            return stored

    @on_writer
    def add_superseding(
        self, conn: sqlite3.Connection, items: Sequence[Superseding], now: datetime
    ) -> list[Supersession]:
        """One write transaction for the call; each item decided against what the items
        before it wrote (``supersession``)."""
        if not items:
            return []
        space = batch_space([i.fact for i in items], [i.vector for i in items])
        rows = finite([i.vector for i in items])
        with self._handle.writing(conn) as changes:
            admit_space(conn, space)
            changes.space = space
            return [
                add_item(conn, changes, item, rows[n : n + 1], now) for n, item in enumerate(items)
            ]

    @on_reader
    def get_facts(self, conn: sqlite3.Connection, ids: Sequence[FactId]) -> list[Fact]:
        sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE id IN ({{ids}})"
        found = {row[0]: self._parse(row) for row in rows_by_ids(conn, sql, ids)}
        return [found[i] for i in ids if i in found]

    @on_reader
    def fact_origins(
        self, conn: sqlite3.Connection, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        parts = visible_partitions(visibility)
        if not parts or not ids:
            return {}
        where, keys = partition_filter(parts, by_index=False)
        found: dict[FactId, FactOrigin] = {}
        for chunk in chunks(list(dict.fromkeys(ids))):
            params = [*chunk, *keys]
            try:
                rows = conn.execute(
                    SELECT_ORIGINS.format(ids=placeholders(len(chunk)), where=where), params
                ).fetchall()
            except sqlite3.OperationalError as exc:
                if not not_json(exc):
                    raise
                rows = conn.execute(
                    CHECKED_ORIGINS.format(ids=placeholders(len(chunk)), where=where), params
                ).fetchall()
            for fact_id, formed_us, valid, session in rows:
                found[FactId(as_text(fact_id, "facts", fact_id))] = origin(
                    fact_id, formed_us, valid, session
                )
        return found

    @on_reader
    def get_vectors(
        self, conn: sqlite3.Connection, ids: Sequence[FactId]
    ) -> dict[FactId, list[float]]:
        sql = "SELECT id, vec_dim, vector FROM facts WHERE id IN ({ids})"
        rows = rows_by_ids(conn, sql, list(dict.fromkeys(ids)))
        return {
            FactId(fact_id): vector_rows([fact_id], [blob], as_int(dim, "facts", fact_id))[0]
            .astype(float)
            .tolist()
            for fact_id, dim, blob in rows
        }

    @on_reader
    def known_hashes(
        self,
        conn: sqlite3.Connection,
        agent_id: AgentId,
        user_id: UserId | None,
        among: Collection[str] | None = None,
    ) -> set[tuple[Scope, str]]:
        parts: list[KeyCols] = [(agent_id, Scope.AGENT.value, "")]
        if user_id is not None:
            parts.append((agent_id, Scope.USER.value, user_id))
        if among is not None:
            return held_among(conn, parts, sorted(set(among)))
        where, params = partition_filter(parts)
        rows = conn.execute(  # the unique index holds both columns: the table is never read
            "SELECT scope, content_hash FROM facts INDEXED BY facts_active_hash "
            f"WHERE status = 'active' AND {where}",
            params,
        )
        with decoding("facts", "of the content hash index"):
            return {(Scope(scope), digest) for scope, digest in rows}

    @on_writer
    def update_fact(
        self, conn: sqlite3.Connection, fact: Fact, vector: Vector | None, expected_version: int
    ) -> Fact:
        with self._handle.writing(conn) as changes:
            stored = fetch_fact(conn, fact.id)
            if stored is None:
                raise NotFoundError(f"no fact with id {fact.id!r}")
            if stored.version != expected_version:
                raise ConflictError(
                    f"fact {fact.id!r} is at version {stored.version}, not {expected_version}"
                )
            fact = keep_store_fields(fact, stored, vector)
            if vector is not None:
                admit_space(conn, fact_space(fact))
            refuse_duplicate(conn, fact)
            if fact_key(stored) != fact_key(fact):
                changes.tombstone(fact_key(stored), fact.id)
            if not rewrite_fact(conn, fact, changes.facts(fact_key(fact)), expected_version):
                raise ConflictError(f"fact {fact.id!r} changed while it was being updated")
            if vector is not None:
                conn.execute(
                    "UPDATE facts SET vec_model = ?, vec_dim = ?, vector = ? WHERE id = ?",
                    (fact.embedding_model, fact.embedding_dim, vector_blob(vector), fact.id),
                )
            return fact

    @on_reader
    def list_facts(self, conn: sqlite3.Connection, query: FactQuery) -> list[Fact]:
        sql, params = listing_sql(query)
        return [self._parse(row) for row in conn.execute(sql, params)]

    @on_reader
    def count_facts(self, conn: sqlite3.Connection, key: ScopeKey) -> int:
        if key.scope not in FACT_SCOPES:
            return 0
        (count,) = conn.execute(  # counted in the (partial) unique index alone
            "SELECT COUNT(*) FROM facts INDEXED BY facts_active_hash "
            "WHERE agent_id = ? AND scope = ? AND owner = ? AND status = 'active'",
            key_cols(key),
        ).fetchone()
        return int(count)

    @on_reader
    def fact_users(
        self, conn: sqlite3.Connection, agent_id: AgentId, after: UserId | None, limit: int
    ) -> list[UserId]:
        rows = conn.execute(  # along facts_partition_seq's (agent, scope, owner) prefix
            "SELECT DISTINCT owner FROM facts WHERE agent_id = ? AND scope = 'user' "
            "AND owner > ? ORDER BY owner LIMIT ?",
            (agent_id, after or "", max(limit, 0)),
        )
        return [UserId(owner) for (owner,) in rows]

    @on_reader
    def fact_agents(
        self, conn: sqlite3.Connection, after: AgentId | None, limit: int
    ) -> list[AgentId]:
        rows = conn.execute(  # along facts_partition_seq's leading agent_id
            "SELECT DISTINCT agent_id FROM facts WHERE agent_id > ? ORDER BY agent_id LIMIT ?",
            (after or "", max(limit, 0)),
        )
        return [AgentId(agent) for (agent,) in rows]

    @on_reader
    def ids_starting_with(
        self, conn: sqlite3.Connection, agent_id: AgentId, prefix: str, limit: int
    ) -> list[FactId]:
        return [FactId(i) for i in ids_from(conn, "facts", agent_id, prefix, limit)]

    @on_reader
    def recent_facts(
        self, conn: sqlite3.Connection, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        """The newest ``limit`` of each visible partition, read backwards along an index,
        then merged: the cost follows ``limit``, not how many facts the window holds."""
        parts = visible_partitions(visibility)
        if not parts or limit <= 0:
            return []
        newest = (
            "SELECT * FROM (SELECT pk, formed_us FROM facts INDEXED BY facts_recent "
            "WHERE agent_id = ? AND scope = ? AND owner = ? AND status = 'active' "
            "AND formed_us >= ? ORDER BY formed_us DESC, pk DESC LIMIT ?)"
        )
        params = [v for part in parts for v in (*part, to_us(since), limit)]
        rows = conn.execute(
            f"SELECT {', '.join('f.' + c for c in FACT_COLUMNS.split(', '))} FROM ("
            + " UNION ALL ".join([newest] * len(parts))
            + ") r JOIN facts f ON f.pk = r.pk ORDER BY r.formed_us DESC, r.pk DESC LIMIT ?",
            (*params, limit),
        )
        return [self._parse(row) for row in rows]

    @on_writer
    def record_access(self, conn: sqlite3.Connection, ids: Sequence[FactId], now: datetime) -> None:
        """One statement per 500 ids, so the increment is atomic without a transaction of
        its own; it moves no revision, since an access changes nothing a context shows."""
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), 500):
            part = unique[start : start + 500]
            conn.execute(
                "UPDATE facts SET access_count = access_count + 1, last_accessed_us = ? "
                f"WHERE id IN ({placeholders(len(part))})",
                (to_us(now), *part),
            )

    @on_writer
    def delete_facts(self, conn: sqlite3.Connection, ids: Sequence[FactId]) -> int:
        with self._handle.writing(conn) as changes:
            removed = 0
            for fact_id in dict.fromkeys(ids):
                stored = fetch_fact(conn, fact_id)
                if stored is None:
                    continue
                changes.tombstone(fact_key(stored), fact_id)
                removed += conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,)).rowcount
            return removed

    @on_writer
    def reembed_facts(
        self, conn: sqlite3.Connection, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]
    ) -> None:
        for vector in vectors.values():
            space.check_vector(len(vector))
        with self._handle.writing(conn) as changes:
            write_space(conn, space)
            for fact_id, vector in vectors.items():
                stored = fetch_fact(conn, fact_id)
                if stored is None:
                    continue
                moved = stored.model_copy(
                    update={"embedding_model": space.model, "embedding_dim": space.dimension}
                )
                conn.execute(
                    "UPDATE facts SET vec_model = ?, vec_dim = ?, vector = ?, seq = ?, doc = ? "
                    "WHERE id = ?",
                    (
                        space.model,
                        space.dimension,
                        vector_blob(vector),
                        changes.facts(fact_key(stored)),
                        moved.model_dump_json(),
                        fact_id,
                    ),
                )
