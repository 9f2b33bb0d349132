"""What an update of a fact keeps of the stored one, and the duplicate it must not become."""

from __future__ import annotations

import sqlite3

from eden_memory.adapters.stores.sqlite.facts.rows import active_duplicate
from eden_memory.adapters.stores.sqlite.space import fact_space
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.models import Fact
from eden_memory.ports.stores import Vector


def keep_store_fields(fact: Fact, stored: Fact, vector: Vector | None) -> Fact:
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


def refuse_duplicate(conn: sqlite3.Connection, fact: Fact) -> None:
    if not fact.is_active:
        return
    twin = active_duplicate(conn, fact)
    if twin is not None and twin.id != fact.id:
        raise ConflictError(
            f"fact {fact.id!r} would duplicate the active fact {twin.id!r} of the same scope"
        )
