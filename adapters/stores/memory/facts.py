"""``InMemoryFacts``: facts and their vectors; exact-duplicate free, compare-and-set, one
embedding space."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from eden_memory.adapters.stores.memory import supersession
from eden_memory.adapters.stores.memory.state import StateHolder, StoredFact, copy_vector
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import ConflictError, InvalidInputError, NotFoundError
from eden_memory.domain.fifo import newest_first, newest_first_at
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.domain.supersession import Supersession
from eden_memory.ports.stores import FactOrigin, FactQuery, Superseding, Vector


class InMemoryFacts(StateHolder):
    """The ``FactStore`` of the in-memory store."""

    async def embedding_space(self) -> EmbeddingSpace | None:
        await self._turn()
        return self._state.current_space()

    async def add_facts(self, facts: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        await self._turn()
        if len(facts) != len(vectors):
            raise InvalidInputError(f"{len(facts)} facts but {len(vectors)} vectors")
        if not facts:
            return []
        space = self._state.current_space() or facts[0].embedding_space
        for fact, vector in zip(facts, vectors, strict=True):  # check all before writing any
            space.require_same(fact.embedding_space)
            space.check_vector(len(vector))
        self._state.space = space
        return [self._insert(f, v, space) for f, v in zip(facts, vectors, strict=True)]

    async def add_superseding(
        self, items: Sequence[Superseding], now: datetime
    ) -> list[Supersession]:
        await self._turn()
        return supersession.add_superseding(self._state, items, now)

    def _insert(self, fact: Fact, vector: Vector, space: EmbeddingSpace) -> Fact:
        existing = self._state.facts.get(fact.id)
        if existing is not None:  # the same record again: a retried write
            return existing.fact
        twin = self._active_twin(fact)
        if twin is not None:
            return twin
        self._state.put(StoredFact(fact, copy_vector(vector), space))
        self._state.bump([fact.key])
        return fact

    def _active_twin(self, fact: Fact) -> Fact | None:
        """Another active fact with the same key and content hash, if ``fact`` is active."""
        if not fact.is_active:
            return None
        for stored in self._state.partition_of(fact).values():
            other = stored.fact
            if (
                other.id != fact.id
                and other.is_active
                and other.content_hash == fact.content_hash
                and other.key == fact.key
            ):
                return other
        return None

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        await self._turn()
        return [self._state.facts[i].fact for i in ids if i in self._state.facts]

    async def fact_origins(
        self, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        await self._turn()
        found = (self._state.facts[i].fact for i in ids if i in self._state.facts)
        return {
            f.id: FactOrigin(f.formed_at, f.source_session_id)
            for f in found
            if f.is_active and visibility.admits(f.agent_id, f.scope, f.user_id)
        }

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]:
        await self._turn()
        facts = self._state.facts
        return {i: copy_vector(facts[i].vector) for i in ids if i in facts}

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        await self._turn()
        keys = {ScopeKey(Scope.AGENT, agent_id)}
        if user_id is not None:
            keys.add(ScopeKey(Scope.USER, agent_id, user_id=user_id))
        return {
            (s.fact.scope, s.fact.content_hash)
            for s in self._state.facts.values()
            if s.fact.is_active
            and s.fact.key in keys
            and (among is None or s.fact.content_hash in among)
        }

    async def update_fact(self, fact: Fact, vector: Vector | None, expected_version: int) -> Fact:
        await self._turn()
        stored = self._state.facts.get(fact.id)
        if stored is None:
            raise NotFoundError(f"no fact {fact.id!r}")
        if stored.fact.version != expected_version:
            raise ConflictError(
                f"fact {fact.id!r} is at version {stored.fact.version}, "
                f"not {expected_version}: it changed meanwhile"
            )
        if self._active_twin(fact) is not None:
            raise ConflictError(f"another active fact of {fact.key.as_text()} says the same")
        if vector is None:  # the embedding fields describe the vector the store keeps
            kept = stored.space
            if fact.embedding_space != kept:
                fact = fact.evolve(embedding_model=kept.model, embedding_dim=kept.dimension)
            replacement = StoredFact(fact, stored.vector, kept)
        else:
            space = self._state.current_space() or fact.embedding_space
            space.require_same(fact.embedding_space)
            space.check_vector(len(vector))
            replacement = StoredFact(fact, copy_vector(vector), space)
        self._state.put(replacement)
        self._state.bump([stored.fact.key, fact.key])
        return fact

    async def list_facts(self, query: FactQuery) -> list[Fact]:
        await self._turn()
        chosen = [
            f
            for f in (s.fact for s in self._state.facts.values())
            if f.agent_id == query.agent_id
            and (query.scope is None or f.scope is query.scope)
            and (query.user_id is None or f.user_id == query.user_id)
            and (query.status is None or f.status is query.status)
        ]
        if query.after is not None:
            mark = newest_first_at(query.after.formed_at, query.after.id)
            chosen = [f for f in chosen if newest_first(f) > mark]
        chosen.sort(key=newest_first)
        return chosen[query.offset : query.offset + query.limit]

    async def count_facts(self, key: ScopeKey) -> int:
        await self._turn()
        return sum(1 for s in self._state.facts.values() if s.fact.is_active and s.fact.key == key)

    async def fact_users(self, agent_id: AgentId, after: UserId | None, limit: int) -> list[UserId]:
        await self._turn()
        users = {
            f.user_id
            for f in (s.fact for s in self._state.facts.values())
            if f.agent_id == agent_id and f.user_id is not None and f.scope is Scope.USER
        }
        return sorted(u for u in users if after is None or u > after)[: max(limit, 0)]

    async def fact_agents(self, after: AgentId | None, limit: int) -> list[AgentId]:
        await self._turn()
        agents = {s.fact.agent_id for s in self._state.facts.values()}
        return sorted(a for a in agents if after is None or a > after)[: max(limit, 0)]

    async def ids_starting_with(self, agent_id: AgentId, prefix: str, limit: int) -> list[FactId]:
        await self._turn()
        found = [
            i
            for i, s in self._state.facts.items()
            if s.fact.agent_id == agent_id and i.startswith(prefix)
        ]
        return sorted(found)[: max(limit, 0)]

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        await self._turn()
        chosen = [s.fact for s in self._state.visible(visibility) if s.fact.formed_at >= since]
        chosen.sort(key=newest_first)
        return chosen[: max(limit, 0)]

    async def record_access(self, ids: Sequence[FactId], now: datetime) -> None:
        """Access tracking is not a change of memory: revisions stay where they are."""
        await self._turn()
        for fact_id in dict.fromkeys(ids):
            stored = self._state.facts.get(fact_id)
            if stored is not None:
                count = stored.fact.access_count + 1
                stored.fact = stored.fact.evolve(access_count=count, last_accessed_at=now)

    async def delete_facts(self, ids: Sequence[FactId]) -> int:
        await self._turn()
        popped = [self._state.pop(i) for i in dict.fromkeys(ids)]
        removed = [s for s in popped if s is not None]
        self._state.bump(s.fact.key for s in removed)
        return len(removed)

    async def reembed_facts(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        await self._turn()
        for vector in vectors.values():
            space.check_vector(len(vector))
        for fact_id, vector in vectors.items():
            stored = self._state.facts.get(fact_id)
            if stored is None:  # deleted while the re-embedding ran
                continue
            moved = stored.fact.evolve(embedding_model=space.model, embedding_dim=space.dimension)
            self._state.put(StoredFact(moved, copy_vector(vector), space))
            self._state.bump([moved.key])
        self._state.space = space
