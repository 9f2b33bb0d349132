"""Search results about the same thing: the newer first, the older marked with it.

The rule is the domain's (``domain/conflicts.py``); this reads what it needs of the facts
that a search returns (their stored vectors: one read of ``top_k`` vectors or so). A vector
of another space than the embedder's (a fact a re-embedding has not reached yet) is not
compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.domain.conflicts import Said, Settled, newer_first, stems, unit
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.models import Fact
from eden_memory.domain.temporal import time_named
from eden_memory.ports.stores import FactStore


async def settle(
    store: FactStore,
    facts: Sequence[Fact],
    queries: Sequence[str],
    floor: float,
    space: EmbeddingSpace,
    now: datetime,
) -> Settled:
    """Where each of ``facts`` (in their ranked order) goes, and which newer one outdates it."""
    comparable = [f.id for f in facts if f.embedding_space == space]
    vectors = await store.get_vectors(comparable) if len(comparable) > 1 else {}
    said = [
        Said(f.formed_at, stems(f.content), unit(vectors.get(f.id, ())), _key(f)) for f in facts
    ]
    asked = frozenset().union(*(stems(q) for q in queries))
    # A question about a time ("in May 2023") asks what was true then, not what is now.
    now_asked = all(time_named(q, now) is None for q in queries)
    return newer_first(said, asked, floor, by_time=now_asked)


def _key(fact: Fact) -> str | None:
    """The fact's supersede key within its scope key: facts of one key are one thing."""
    if fact.supersede_key is None:
        return None
    return f"{fact.key.as_text()}|{fact.supersede_key}"
