"""Adding a batch of facts: one statement for the batch, one per fact only when refused."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.facts.rows import (
    INSERT_FACT,
    active_duplicate,
    fact_key,
    fetch_fact,
    insert_params,
)
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.models import Fact


def add_all(
    conn: sqlite3.Connection, changes: Changes, facts: Sequence[Fact], rows: Matrix
) -> bool:
    """The whole batch in one statement; False (and nothing written) if any fact is refused,
    so that ``add_one`` finds out which and what the store holds instead."""
    seq = changes.seq
    conn.execute("SAVEPOINT add_all")
    inserted = conn.executemany(
        INSERT_FACT,
        [insert_params(f, v.tobytes(), seq) for f, v in zip(facts, rows, strict=True)],
    ).rowcount
    if inserted != len(facts):
        conn.execute("ROLLBACK TO add_all")
        conn.execute("RELEASE add_all")
        return False
    conn.execute("RELEASE add_all")
    for key, at in _by_partition(facts).items():
        _inserted(changes, key, [facts[i] for i in at], rows[at])
    return True


def add_one(conn: sqlite3.Connection, changes: Changes, fact: Fact, row: Matrix) -> Fact:
    """Store one fact unless its id, or (for an active fact) its content, is already held.

    The insert itself detects both (primary key, partial unique index), so a new fact costs
    one statement; only a refused one is looked up.
    """
    if conn.execute(INSERT_FACT, insert_params(fact, row.tobytes(), changes.seq)).rowcount:
        _inserted(changes, fact_key(fact), [fact], row)
        return fact
    stored = fetch_fact(conn, fact.id) or active_duplicate(conn, fact)
    if stored is None:
        raise ConflictError(f"fact {fact.id!r} was refused by the store")
    return stored


def _by_partition(facts: Sequence[Fact]) -> dict[KeyCols, list[int]]:
    out: dict[KeyCols, list[int]] = {}
    for i, fact in enumerate(facts):
        out.setdefault(fact_key(fact), []).append(i)
    return out


def _inserted(changes: Changes, key: KeyCols, facts: Sequence[Fact], rows: Matrix) -> None:
    """Tell ``changes`` what was inserted: active facts with their rows (the vector logs
    append them as they are); any other fact as a change to read back."""
    if all(f.is_active for f in facts):
        changes.added(key, [f.id for f in facts], rows)
    else:
        changes.facts(key)
