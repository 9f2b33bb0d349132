"""``add_superseding`` on the in-memory store: every item decided against what the items
before it wrote, and nothing written until all are decided (as one transaction would)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.adapters.stores.memory.state import MemoryState, StoredFact, copy_vector
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.supersession import Supersession, supersede
from eden_memory.ports.stores import Superseding


class Pending:
    """The writes of one call, over the state they will change."""

    def __init__(self, state: MemoryState, space: EmbeddingSpace) -> None:
        self._state = state
        self._space = space
        self.writes: dict[FactId, StoredFact] = {}

    def get(self, fact_id: FactId) -> StoredFact | None:
        return self.writes.get(fact_id) or self._state.facts.get(fact_id)

    def add(self, item: Superseding, now: datetime) -> Supersession:
        stored = self.get(item.fact.id)
        new = item.fact if stored is None else stored.fact
        named = None if item.supersedes is None else self.get(item.supersedes)
        target = None if named is None else named.fact
        done = supersede(new, self._keyed(new), now, item.supersedes, target)
        if stored is None:
            twin = self._active_twin(done.fact)
            if twin is not None:
                return Supersession(twin)
            self.writes[new.id] = StoredFact(done.fact, copy_vector(item.vector), self._space)
        elif done.fact != stored.fact:
            self.writes[new.id] = StoredFact(done.fact, stored.vector, stored.space)
        for old in done.retired:
            kept = self.get(old.id)
            assert kept is not None  # the rule retires only what it was given
            self.writes[old.id] = StoredFact(old, kept.vector, kept.space)
        return done

    def _same_owner(self, fact: Fact) -> list[Fact]:
        held = {i: s.fact for i, s in self._state.partition_of(fact).items()}
        held |= {i: s.fact for i, s in self.writes.items() if s.fact.key == fact.key}
        return list(held.values())

    def _keyed(self, fact: Fact) -> list[Fact]:
        if fact.supersede_key is None:
            return []
        return [f for f in self._same_owner(fact) if f.supersede_key == fact.supersede_key]

    def _active_twin(self, fact: Fact) -> Fact | None:
        if not fact.is_active:
            return None
        for other in self._same_owner(fact):
            if other.is_active and other.content_hash == fact.content_hash and other.id != fact.id:
                return other
        return None


def add_superseding(
    state: MemoryState, items: Sequence[Superseding], now: datetime
) -> list[Supersession]:
    """Decide every item, then write them all; an error leaves the state as it was."""
    if not items:
        return []
    space = state.current_space() or items[0].fact.embedding_space
    for item in items:  # check all before deciding any
        space.require_same(item.fact.embedding_space)
        space.check_vector(len(item.vector))
    pending = Pending(state, space)
    done = [pending.add(item, now) for item in items]
    state.space = space
    for stored in pending.writes.values():
        state.put(stored)
    state.bump(s.fact.key for s in pending.writes.values())
    return done
