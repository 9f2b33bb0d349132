"""Reading facts: by id, by listing, the FIFO, and what the dedup step needs.

Visibility is the domain's rule (``FactVisibility``) turned into the list of partitions a
viewer may see; every query is restricted to them in SQL, before ordering or limiting.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.sqlite.codec import (
    KeyCols,
    chunks,
    key_cols,
    owner_of,
    placeholders,
    rows_by_ids,
    to_us,
)
from eden_memory.adapters.stores.sqlite.decoding import as_int, decoding, vector_rows
from eden_memory.adapters.stores.sqlite.fact_rows import FACT_COLUMNS, fact_from_row
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FACT_SCOPES, FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import FactQuery

# Turns a ``FACT_COLUMNS`` row into a fact: ``fact_from_row``, or a reader's ``FactCache``.
Parse = Callable[[Sequence[Any]], Fact]


def visible_partitions(visibility: FactVisibility) -> list[KeyCols]:
    """The (agent, scope, owner) partitions whose facts ``visibility`` admits."""
    parts: list[KeyCols] = []
    if Scope.AGENT in visibility.scopes:
        parts.append((visibility.agent_id, Scope.AGENT.value, ""))
    if Scope.USER in visibility.scopes and visibility.user_id is not None:
        parts.append((visibility.agent_id, Scope.USER.value, visibility.user_id))
    return parts


def partition_filter(parts: Sequence[KeyCols], alias: str = "") -> tuple[str, list[str]]:
    """A WHERE fragment admitting exactly ``parts`` (never empty: callers check first)."""
    p = f"{alias}." if alias else ""
    clause = f"({p}agent_id = ? AND {p}scope = ? AND {p}owner = ?)"
    return "(" + " OR ".join([clause] * len(parts)) + ")", [v for part in parts for v in part]


def get_facts(
    conn: sqlite3.Connection, ids: Sequence[str], parse: Parse = fact_from_row
) -> list[Fact]:
    sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE id IN ({{ids}})"
    found = {row[0]: parse(row) for row in rows_by_ids(conn, sql, ids)}
    return [found[i] for i in ids if i in found]


def get_vectors(conn: sqlite3.Connection, ids: Sequence[str]) -> dict[str, list[float]]:
    sql = "SELECT id, vec_dim, vector FROM facts WHERE id IN ({ids})"
    rows = rows_by_ids(conn, sql, list(dict.fromkeys(ids)))
    return {
        fact_id: vector_rows([fact_id], [blob], as_int(dim, "facts", fact_id))[0]
        .astype(float)
        .tolist()
        for fact_id, dim, blob in rows
    }


def known_hashes(
    conn: sqlite3.Connection,
    agent_id: str,
    user_id: str | None,
    among: Collection[str] | None = None,
) -> set[tuple[Scope, str]]:
    """The active (scope, hash) pairs of the agent's and the user's partitions.

    With ``among``, one probe of the unique index per partition and hash: the cost follows
    the batch, not the partitions (a store of a million facts reads a handful of entries).
    """
    parts: list[KeyCols] = [(agent_id, Scope.AGENT.value, "")]
    if user_id is not None:
        parts.append((agent_id, Scope.USER.value, user_id))
    if among is not None:
        return _held_among(conn, parts, sorted(set(among)))
    where, params = partition_filter(parts)
    rows = conn.execute(  # the unique index holds both columns: the table is never read
        "SELECT scope, content_hash FROM facts INDEXED BY facts_active_hash "
        f"WHERE status = 'active' AND {where}",
        params,
    )
    with decoding("facts", "of the content hash index"):
        return {(Scope(scope), digest) for scope, digest in rows}


def _held_among(
    conn: sqlite3.Connection, parts: list[KeyCols], hashes: list[str]
) -> set[tuple[Scope, str]]:
    found: set[tuple[Scope, str]] = set()
    for part in parts:
        for chunk in chunks(hashes):
            rows = conn.execute(
                "SELECT content_hash FROM facts INDEXED BY facts_active_hash "
                "WHERE agent_id = ? AND scope = ? AND owner = ? AND status = 'active' "
                f"AND content_hash IN ({placeholders(len(chunk))})",
                (*part, *chunk),
            )
            found.update((Scope(part[1]), digest) for (digest,) in rows)
    return found


def list_facts(
    conn: sqlite3.Connection, query: FactQuery, parse: Parse = fact_from_row
) -> list[Fact]:
    sql, params = listing_sql(query)
    return [parse(row) for row in conn.execute(sql, params)]


def listing_sql(query: FactQuery) -> tuple[str, tuple[str | int, ...]]:
    """The statement of one listing page and its parameters (its plan is tested)."""
    where: list[str] = ["agent_id = ?"]
    params: list[str | int] = [query.agent_id]
    if query.scope is not None:
        where.append("scope = ?")
        params.append(query.scope.value)
    if query.user_id is not None:
        where.append("owner = ? AND scope = 'user'")
        params.append(owner_of(query.user_id))
    if query.status is not None:
        where.append("status = ?")
        params.append(query.status.value)
    if query.after is not None:  # keyset: the index starts at the position, nothing skipped
        at = to_us(query.after.formed_at)
        where.append("formed_us <= ? AND (formed_us < ? OR id > ?)")
        params.extend([at, at, query.after.id])
    sql = (  # in the order of the index facts_listing (schema version 6)
        f"SELECT {FACT_COLUMNS} FROM facts WHERE {' AND '.join(where)} "
        "ORDER BY formed_us DESC, id LIMIT ? OFFSET ?"
    )
    return sql, (*params, query.limit, query.offset)


def count_facts(conn: sqlite3.Connection, key: ScopeKey) -> int:
    if key.scope not in FACT_SCOPES:
        return 0
    (count,) = conn.execute(  # counted in the (partial) unique index alone
        "SELECT COUNT(*) FROM facts INDEXED BY facts_active_hash "
        "WHERE agent_id = ? AND scope = ? AND owner = ? AND status = 'active'",
        key_cols(key),
    ).fetchone()
    return int(count)


def recent_facts(
    conn: sqlite3.Connection,
    visibility: FactVisibility,
    since: datetime,
    limit: int,
    parse: Parse = fact_from_row,
) -> list[Fact]:
    """The newest ``limit`` of each visible partition, read backwards along an index, then
    merged: the cost follows ``limit``, not how many facts the window holds."""
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
    return [parse(row) for row in rows]
