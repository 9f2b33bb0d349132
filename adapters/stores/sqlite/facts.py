"""Writing facts: add with exact-duplicate suppression, compare-and-set update, delete,
access counts and re-embedding. Each function is one write transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite.codec import (
    KeyCols,
    finite,
    placeholders,
    to_us,
    vector_blob,
)
from eden_memory.adapters.stores.sqlite.fact_rows import (
    INSERT_FACT,
    active_duplicate,
    fact_key,
    fetch_fact,
    index_added,
    index_keywords,
    insert_params,
    last_pk,
    rewrite_fact,
)
from eden_memory.adapters.stores.sqlite.partition import Matrix
from eden_memory.adapters.stores.sqlite.revisions import Changes, writing
from eden_memory.adapters.stores.sqlite.space import (
    admit_space,
    batch_space,
    fact_space,
    write_space,
)
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact

Vector = Sequence[float]


def add_facts(
    conn: sqlite3.Connection, facts: Sequence[Fact], vectors: Sequence[Vector]
) -> list[Fact]:
    if not facts:
        return []
    space = batch_space(facts, vectors)
    rows = finite(vectors)  # one conversion for the batch (all of one dimension), not per row
    with writing(conn) as changes:
        admit_space(conn, space)
        changes.space = space  # admitted: the store's
        after = last_pk(conn)
        if _add_all(conn, changes, facts, rows):
            index_added(conn, after, facts)
            return list(facts)
        stored = [add_one(conn, changes, f, rows[i : i + 1]) for i, f in enumerate(facts)]
        index_keywords(conn, after)
        return stored


def _add_all(
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


def _by_partition(facts: Sequence[Fact]) -> dict[KeyCols, list[int]]:
    out: dict[KeyCols, list[int]] = {}
    for i, fact in enumerate(facts):
        out.setdefault(fact_key(fact), []).append(i)
    return out


def _inserted(changes: Changes, key: KeyCols, facts: Sequence[Fact], rows: Matrix) -> None:
    """Tell ``changes`` what was inserted: active facts with their rows (the vector file
    appends them as they are); any other fact as a change to read back."""
    if all(f.is_active for f in facts):
        changes.added(key, [f.id for f in facts], rows)
    else:
        changes.facts(key)


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


def update_fact(
    conn: sqlite3.Connection, fact: Fact, vector: Vector | None, expected_version: int
) -> Fact:
    with writing(conn) as changes:
        stored = fetch_fact(conn, fact.id)
        if stored is None:
            raise NotFoundError(f"no fact with id {fact.id!r}")
        if stored.version != expected_version:
            raise ConflictError(
                f"fact {fact.id!r} is at version {stored.version}, not {expected_version}"
            )
        fact = _keep_store_fields(fact, stored, vector)
        if vector is not None:
            admit_space(conn, fact_space(fact))
        _refuse_duplicate(conn, fact)
        if fact_key(stored) != fact_key(fact):
            changes.tombstone(fact_key(stored), fact.id)
        if not rewrite_fact(conn, fact, changes.facts(fact_key(fact)), expected_version):
            raise ConflictError(f"fact {fact.id!r} changed while it was being updated")
        if vector is not None:
            _write_vector(conn, fact, vector)
        return fact


def _keep_store_fields(fact: Fact, stored: Fact, vector: Vector | None) -> Fact:
    """Counters stay the store's (they move atomically on their own); without a new vector,
    so do the embedding fields, which describe the vector the store holds."""
    keep: dict[str, object] = {
        "access_count": stored.access_count,
        "last_accessed_at": stored.last_accessed_at,
    }
    if vector is None:
        keep |= {"embedding_model": stored.embedding_model, "embedding_dim": stored.embedding_dim}
    else:
        fact_space(fact).check_vector(len(vector))
    return fact.model_copy(update=keep)


def _refuse_duplicate(conn: sqlite3.Connection, fact: Fact) -> None:
    if not fact.is_active:
        return
    twin = active_duplicate(conn, fact)
    if twin is not None and twin.id != fact.id:
        raise ConflictError(
            f"fact {fact.id!r} would duplicate the active fact {twin.id!r} of the same scope"
        )


def _write_vector(conn: sqlite3.Connection, fact: Fact, vector: Vector) -> None:
    conn.execute(
        "UPDATE facts SET vec_model = ?, vec_dim = ?, vector = ? WHERE id = ?",
        (fact.embedding_model, fact.embedding_dim, vector_blob(vector), fact.id),
    )


def delete_facts(conn: sqlite3.Connection, ids: Sequence[str]) -> int:
    with writing(conn) as changes:
        removed = 0
        for fact_id in dict.fromkeys(ids):
            stored = fetch_fact(conn, fact_id)
            if stored is None:
                continue
            changes.tombstone(fact_key(stored), fact_id)
            removed += conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,)).rowcount
        return removed


def record_access(conn: sqlite3.Connection, ids: Sequence[str], now: datetime) -> None:
    """One statement, so the increment is atomic without a transaction of its own; it moves
    no revision, since an access changes nothing a context shows."""
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), 500):
        part = unique[start : start + 500]
        conn.execute(
            "UPDATE facts SET access_count = access_count + 1, last_accessed_us = ? "
            f"WHERE id IN ({placeholders(len(part))})",
            (to_us(now), *part),
        )


def reembed_facts(
    conn: sqlite3.Connection, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]
) -> None:
    for vector in vectors.values():
        space.check_vector(len(vector))
    with writing(conn) as changes:
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
