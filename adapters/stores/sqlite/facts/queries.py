"""The statements of a listing page and of a batch's hash probes (their plans are tested)."""

from __future__ import annotations

import sqlite3

from eden_memory.adapters.stores.sqlite.codec import KeyCols, chunks, owner_of, placeholders, to_us
from eden_memory.adapters.stores.sqlite.facts.rows import FACT_COLUMNS
from eden_memory.domain.scopes import Scope
from eden_memory.ports.stores import FactQuery


def listing_sql(query: FactQuery) -> tuple[str, tuple[str | int, ...]]:
    """The statement of one listing page and its parameters."""
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


def held_among(
    conn: sqlite3.Connection, parts: list[KeyCols], hashes: list[str]
) -> set[tuple[Scope, str]]:
    """The active (scope, hash) pairs among ``hashes``: one probe of the unique index per
    partition and hash, so the cost follows the batch, not the partitions."""
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
