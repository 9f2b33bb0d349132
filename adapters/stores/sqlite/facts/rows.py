"""A fact's row: the record as JSON, plus the columns that are searched, ordered or counted.

``access_count`` and ``last_accessed_at`` live only in their columns, which are incremented
in place; the JSON copy of them is ignored when reading, so a concurrent update of the fact
can never undo a recorded access.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.stores.damage import DECODE_ERRORS, reason
from eden_memory.adapters.stores.sqlite.codec import (
    KeyCols,
    from_us,
    owner_of,
    to_us,
)
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_int, decoding
from eden_memory.adapters.stores.sqlite.keyword import partitions as keyword_partitions
from eden_memory.domain.models import Fact

# Every read of whole facts selects these, in this order (``fact_from_row`` relies on it).
FACT_COLUMNS = "id, seq, access_count, last_accessed_us, doc"


def fact_key(fact: Fact) -> KeyCols:
    return (fact.agent_id, fact.scope.value, owner_of(fact.user_id))


def fact_from_row(row: Sequence[Any]) -> Fact:
    """The fact of a ``FACT_COLUMNS`` row, with the counters of its columns."""
    try:  # not ``decoding``: a search parses every fact it returns, and this is its path
        fact = Fact.model_validate_json(row[4])
    except DECODE_ERRORS as exc:
        raise Undecodable("facts", row[0], reason(exc)) from exc
    if fact.id != row[0]:  # the record of another row, or a damaged id
        raise Undecodable("facts", row[0], f"its record is of fact {fact.id!r}")
    return with_counters(fact, row)


def with_counters(fact: Fact, row: Sequence[Any]) -> Fact:
    """``fact`` with the access counters of its ``FACT_COLUMNS`` row (checked: a
    ``model_copy`` does not validate)."""
    count, last = as_int(row[2], "facts", row[0]), row[3]
    if count < 0:
        raise Undecodable("facts", row[0], "a negative access count")
    if last is None:
        last_at = None
    else:
        with decoding("facts", row[0]):  # a time past the year 9999 overflows
            last_at = from_us(as_int(last, "facts", row[0]))
    if fact.access_count == count and fact.last_accessed_at == last_at:
        return fact
    return fact.model_copy(update={"access_count": count, "last_accessed_at": last_at})


INSERT_FACT = (
    "INSERT INTO facts (id, agent_id, scope, owner, status, content, content_hash, "
    "formed_us, version, seq, access_count, last_accessed_us, vec_model, vec_dim, vector, "
    "doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)


def insert_params(fact: Fact, blob: bytes, seq: int) -> tuple[Any, ...]:
    """The parameters of ``INSERT_FACT`` for one fact; ``blob``: its checked vector's bytes."""
    return (
        fact.id,
        *fact_key(fact),
        fact.status.value,
        fact.content,
        fact.content_hash,
        to_us(fact.formed_at),
        fact.version,
        seq,
        fact.access_count,
        None if fact.last_accessed_at is None else to_us(fact.last_accessed_at),
        fact.embedding_model,
        fact.embedding_dim,
        blob,
        fact.model_dump_json(),
    )


def index_keywords(conn: sqlite3.Connection, after_pk: int) -> None:
    """Add the active facts inserted after ``after_pk`` to the keyword index, in one statement.

    Schema version 7 on: a trigger per inserted row cost half of SQLite's time in a batch
    insert; one statement for the batch tokenises the same text ~6x faster (measured).
    """
    keyword_partitions.fill(conn, after_pk)


def index_added(conn: sqlite3.Connection, after_pk: int, facts: Sequence[Fact]) -> None:
    """``index_keywords`` for a batch inserted whole, in order, into a table whose largest
    key was ``after_pk``: SQLite gave its rows the keys that follow, one by one, so the text
    is indexed from the batch itself (no read back; ~10x cheaper for one fact, measured)."""
    if last_pk(conn) != after_pk + len(facts):  # keys not handed out in order: read them
        index_keywords(conn, after_pk)
        return
    keyword_partitions.index_batch(conn, after_pk + 1, facts)


def last_pk(conn: sqlite3.Connection) -> int:
    (value,) = conn.execute("SELECT coalesce(max(pk), 0) FROM facts").fetchone()
    return int(value)


def rewrite_fact(conn: sqlite3.Connection, fact: Fact, seq: int, expected_version: int) -> bool:
    """Replace the record of ``fact.id`` iff its version is ``expected_version``."""
    cursor = conn.execute(
        "UPDATE facts SET agent_id = ?, scope = ?, owner = ?, status = ?, content = ?, "
        "content_hash = ?, formed_us = ?, version = ?, seq = ?, doc = ? "
        "WHERE id = ? AND version = ?",
        (
            *fact_key(fact),
            fact.status.value,
            fact.content,
            fact.content_hash,
            to_us(fact.formed_at),
            fact.version,
            seq,
            fact.model_dump_json(),
            fact.id,
            expected_version,
        ),
    )
    return cursor.rowcount == 1


def fetch_fact(conn: sqlite3.Connection, fact_id: str) -> Fact | None:
    row = conn.execute(f"SELECT {FACT_COLUMNS} FROM facts WHERE id = ?", (fact_id,)).fetchone()
    return None if row is None else fact_from_row(row)


def active_duplicate(conn: sqlite3.Connection, fact: Fact) -> Fact | None:
    """The active fact of the same key with the same content hash, if any."""
    row = conn.execute(
        f"SELECT {FACT_COLUMNS} FROM facts WHERE agent_id = ? AND scope = ? AND owner = ? "
        "AND content_hash = ? AND status = 'active'",
        (*fact_key(fact), fact.content_hash),
    ).fetchone()
    return None if row is None else fact_from_row(row)
