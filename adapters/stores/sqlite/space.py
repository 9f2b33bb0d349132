"""The store's embedding space, kept in ``meta`` so every process agrees on it."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite.decoding import as_text, decoding
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.models import Fact


def read_space(conn: sqlite3.Connection) -> EmbeddingSpace | None:
    rows = dict(
        conn.execute("SELECT key, value FROM meta WHERE key IN ('space_model', 'space_dim')")
    )
    if "space_model" not in rows:
        return None
    with decoding("meta", "space"):
        return EmbeddingSpace(as_text(rows["space_model"], "meta", "space"), int(rows["space_dim"]))


def write_space(conn: sqlite3.Connection, space: EmbeddingSpace) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
        [("space_model", space.model), ("space_dim", str(space.dimension))],
    )


def holds_facts(conn: sqlite3.Connection) -> bool:
    return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM facts)").fetchone()[0])


def current_space(conn: sqlite3.Connection) -> EmbeddingSpace | None:
    """None while the store holds no fact, whatever space it held before."""
    return read_space(conn) if holds_facts(conn) else None


def fact_space(fact: Fact) -> EmbeddingSpace:
    return EmbeddingSpace(fact.embedding_model, fact.embedding_dim)


def batch_space(facts: Sequence[Fact], vectors: Sequence[Sequence[float]]) -> EmbeddingSpace:
    """The one space of a batch; every vector must have its dimension."""
    if len(facts) != len(vectors):
        raise InvalidInputError(f"got {len(facts)} facts but {len(vectors)} vectors")
    space = fact_space(facts[0])
    for fact, vector in zip(facts, vectors, strict=True):
        space.require_same(fact_space(fact))
        space.check_vector(len(vector))
    return space


def admit_space(conn: sqlite3.Connection, space: EmbeddingSpace) -> None:
    """Accept vectors of ``space``: the store's own, or any while the store is empty."""
    stored = current_space(conn)
    if stored is None:
        write_space(conn, space)
        return
    stored.require_same(space)
