"""Facts: written once per scope key and hash, changed by compare-and-set on ``version``.

Exact duplicates are stopped by the unique partial index ``fact_active_hash`` (one active
fact per scope key and content hash), not by a read before the write: two workers adding
the same sentence at once both get the one stored fact back.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.codec import time_update
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import (
    WRITTEN_AT,
    fact_document,
    key_filter,
)
from eden_memory.adapters.stores.mongo.errors import DuplicateKey
from eden_memory.adapters.stores.mongo.listing import Listing
from eden_memory.adapters.stores.mongo.owners import ids_from, owner_filter, owners_page
from eden_memory.adapters.stores.mongo.spaces import Space
from eden_memory.adapters.stores.mongo.supersession import Supersessions
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import ConflictError, InvalidInputError, NotFoundError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import FACT_SCOPES, FactVisibility, Scope, ScopeKey
from eden_memory.domain.supersession import Supersession
from eden_memory.ports.stores import FactOrigin, FactQuery, Superseding, Vector

NO_VECTOR = {"embedding": 0}
KEY_FIELDS = {"agent_id": 1, "scope": 1, "user_id": 1}
LABEL_FIELDS = {"embedding_model": 1, "embedding_dim": 1}


class MongoFacts:
    """The ``FactStore`` on MongoDB."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx
        self._space = Space(ctx)
        self._listing = Listing(ctx)
        self._supersessions = Supersessions(ctx, self._space)

    async def embedding_space(self) -> EmbeddingSpace | None:
        return await self._space.current()

    async def reembed_facts(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        await self._space.move(space, vectors)

    async def list_facts(self, query: FactQuery) -> list[Fact]:
        return await self._listing.list_facts(query)

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        return await self._listing.recent_facts(visibility, since, limit)

    async def add_facts(self, facts: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        if len(facts) != len(vectors):
            raise InvalidInputError("add_facts needs exactly one vector per fact")
        if not facts:
            return []
        spaces = [EmbeddingSpace(f.embedding_model, f.embedding_dim) for f in facts]
        for space, vector in zip(spaces, vectors, strict=True):
            space.check_vector(len(vector))
        for space in dict.fromkeys(spaces):
            await self._space.claim(space)
        documents = [fact_document(f, self.ctx.ids, v) for f, v in zip(facts, vectors, strict=True)]
        refused = await self.ctx.facts.insert_many(documents)
        stored = [
            await self._stored_instead(fact, documents[i]) if i in refused else fact
            for i, fact in enumerate(facts)
        ]
        await self.ctx.stamp_written(
            [d["_id"] for i, d in enumerate(documents) if i not in refused]
        )
        await self.ctx.bump(f.key for i, f in enumerate(facts) if i not in refused)
        return stored

    async def add_superseding(
        self, items: Sequence[Superseding], now: datetime
    ) -> list[Supersession]:
        return await self._supersessions.add(items, now)

    async def _stored_instead(self, fact: Fact, document: dict[str, Any]) -> Fact:
        """The fact that holds this one's place: same key and hash, or the same id."""
        if fact.is_active:
            same = {**key_filter(fact.key, self.ctx.ids, with_session=False)}
            same.update(content_hash=fact.content_hash, status=FactStatus.ACTIVE.value)
            found = await self.ctx.facts.find_one(same, NO_VECTOR)
            if found is not None:
                return self.ctx.read.fact(found)
        found = await self.ctx.facts.find_one({"_id": document["_id"]}, NO_VECTOR)
        if found is not None:
            return self.ctx.read.fact(found)
        # The record in the way vanished meanwhile: write this one after all.
        if await self.ctx.facts.insert_one(document):
            await self.ctx.stamp_written([document["_id"]])
            await self.ctx.bump([fact.key])
            return fact
        raise ConflictError(f"fact {fact.id} collides with a concurrent write; retry")

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        wanted = [self.ctx.ids.record(i, "fact id") for i in ids]
        found = await self.ctx.facts.find({"_id": {"$in": wanted}}, NO_VECTOR)
        by_id = {d["_id"]: self.ctx.read.fact(d) for d in found}
        return [by_id[i] for i in wanted if i in by_id]

    async def fact_origins(
        self, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        return await self._listing.fact_origins(ids, visibility)

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]:
        wanted = [self.ctx.ids.record(i, "fact id") for i in ids]
        found = await self.ctx.facts.find({"_id": {"$in": wanted}}, {"embedding": 1})
        return {FactId(d["_id"]): self.ctx.read.vector(d) for d in found if "embedding" in d}

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        ids = self.ctx.ids
        owners: list[dict[str, Any]] = [{"scope": Scope.AGENT.value}]
        if user_id is not None:
            owners.append({"scope": Scope.USER.value, "user_id": ids.owner(user_id, "user_id")})
        query: dict[str, Any] = {
            "agent_id": ids.owner(agent_id, "agent_id"),
            "status": FactStatus.ACTIVE.value,
            "$or": owners,
        }
        if among is not None:
            query["content_hash"] = {"$in": sorted(set(among))}
        found = await self.ctx.facts.find(query, {"scope": 1, "content_hash": 1})
        return {(self.ctx.read.scope(d), str(d["content_hash"])) for d in found}

    async def update_fact(self, fact: Fact, vector: Vector | None, expected_version: int) -> Fact:
        if vector is not None:
            space = fact.embedding_space
            space.check_vector(len(vector))
            await self._space.claim(space)
        document = fact_document(fact, self.ctx.ids, vector)
        fact_id = document.pop("_id")
        before = await self.ctx.facts.find_one({"_id": fact_id}, {**KEY_FIELDS, **LABEL_FIELDS})
        if before is None:
            raise NotFoundError(f"no fact with id {fact_id!r}")
        if vector is None:  # the embedding fields describe the vector the store keeps
            for field in LABEL_FIELDS:
                del document[field]
            fact = _labelled(fact, before)
        document.setdefault("_us", {})
        try:
            matched, _ = await self.ctx.facts.update_one(
                {"_id": fact_id, "version": expected_version},
                {"$set": document, "$currentDate": {WRITTEN_AT: True}},
            )
        except DuplicateKey as error:
            raise ConflictError(
                f"an identical active fact already exists in {fact.key.as_text()}"
            ) from error
        if not matched:
            raise ConflictError(f"fact {fact_id} is no longer at version {expected_version}")
        await self.ctx.bump([fact.key, self._key_of(before)])
        return fact

    def _key_of(self, document: dict[str, Any]) -> ScopeKey:
        """The scope key of a stored fact, from its key fields."""
        agent, user = str(document["agent_id"]), self.ctx.ids.read(document.get("user_id"))
        if self.ctx.read.scope(document) is Scope.USER and user is not None:
            return ScopeKey.user(agent, user)
        return ScopeKey.agent(agent)

    async def count_facts(self, key: ScopeKey) -> int:
        if key.scope not in FACT_SCOPES:
            return 0
        query = {**key_filter(key, self.ctx.ids, with_session=False)}
        query["status"] = FactStatus.ACTIVE.value
        return await self.ctx.facts.count(query)

    async def fact_users(self, agent_id: AgentId, after: UserId | None, limit: int) -> list[UserId]:
        ids = self.ctx.ids
        found, field = owner_filter(ids, agent_id, Scope.USER)
        cursor = ids.maybe_owner(after, "user_id")
        page = await owners_page(self.ctx.facts, found, field, cursor, limit)
        return [UserId(str(u)) for u in page]

    async def fact_agents(self, after: AgentId | None, limit: int) -> list[AgentId]:
        cursor = self.ctx.ids.maybe_owner(after, "agent_id")
        page = await owners_page(self.ctx.facts, {}, "agent_id", cursor, limit)
        return [AgentId(str(a)) for a in page]

    async def ids_starting_with(self, agent_id: AgentId, prefix: str, limit: int) -> list[FactId]:
        agent = self.ctx.ids.owner(agent_id, "agent_id")
        return [FactId(i) for i in await ids_from(self.ctx.facts, agent, prefix, limit)]

    async def record_access(self, ids: Sequence[FactId], now: datetime) -> None:
        wanted = list(dict.fromkeys(self.ctx.ids.record(i, "fact id") for i in ids))
        if not wanted:
            return
        update = time_update("last_accessed_at", now)
        update["$inc"] = {"access_count": 1}
        await self.ctx.facts.update_many({"_id": {"$in": wanted}}, update, retry=False)

    async def delete_facts(self, ids: Sequence[FactId]) -> int:
        wanted = list(dict.fromkeys(self.ctx.ids.record(i, "fact id") for i in ids))
        if not wanted:
            return 0
        keys = [
            self._key_of(d) for d in await self.ctx.facts.find({"_id": {"$in": wanted}}, KEY_FIELDS)
        ]
        removed = await self.ctx.facts.delete_many({"_id": {"$in": wanted}})
        await self.ctx.bump(keys)
        return removed


def _labelled(fact: Fact, stored: dict[str, Any]) -> Fact:
    """``fact`` with the embedding fields of the stored vector."""
    kept = EmbeddingSpace(str(stored["embedding_model"]), int(stored["embedding_dim"]))
    if fact.embedding_space == kept:
        return fact
    return fact.evolve(embedding_model=kept.model, embedding_dim=kept.dimension)
