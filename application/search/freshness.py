"""Search results about the same thing: the newer first, the older marked with it.

The rule is the domain's (``domain/conflicts.py``). Facts of one key are one thing, and so,
with ``SearchSettings.same_attribute`` (the default), are two facts of one owner that give
one attribute of one subject different values (``domain/attributes.py``: read from the
words, no read of the store). With a similarity floor
(``SearchSettings.same_thing_similarity``) near-duplicates are too: the stored vectors of the
results are read (one read of ``top_k`` vectors or so); a vector of another space than the
embedder's (a fact a re-embedding has not reached yet) is not compared.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from eden_memory.domain.attributes import claim
from eden_memory.domain.conflicts import Said, Settled, asks_now, newer_first, stems, unit
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.models import Fact
from eden_memory.ports.stores import FactLookup


async def settle(
    store: FactLookup,
    facts: Sequence[Fact],
    queries: Sequence[str],
    floor: float | None,
    space: EmbeddingSpace,
    now: datetime,
    attributes: bool = True,
) -> Settled:
    """Where each of ``facts`` (in their ranked order) goes, and which newer one outdates it;
    ``floor``: the cosine from which two are near-duplicates (None: not compared);
    ``attributes``: whether a changed attribute without a key counts."""
    keys = [k for k in map(_key, facts) if k is not None]
    if floor is None and not attributes and len(set(keys)) == len(keys):
        return Settled(list(range(len(facts))))
    comparable = [f.id for f in facts if f.embedding_space == space]
    vectors = {}
    if floor is not None and len(comparable) > 1:
        vectors = await store.get_vectors(comparable)
    said = [_said(f, vectors.get(f.id, ()), attributes) for f in facts]
    asked = frozenset().union(*(stems(q) for q in queries))
    by_time = all(asks_now(q, now) for q in queries)
    return newer_first(said, asked, math.inf if floor is None else floor, by_time=by_time)


def _said(fact: Fact, vector: Sequence[float], attributes: bool) -> Said:
    read = claim(fact.content) if attributes else None
    owner = fact.key.as_text()
    return Said(fact.formed_at, stems(fact.content), unit(vector), _key(fact), owner, read)


def _key(fact: Fact) -> str | None:
    """The fact's supersede key within its scope key: facts of one key are one thing."""
    if fact.supersede_key is None:
        return None
    return f"{fact.key.as_text()}|{fact.supersede_key}"
