"""``add_superseding`` on MongoDB: one transaction where the deployment has them.

Elsewhere (a standalone server) each new fact is written before the facts it retires, so a
failure in between leaves both active (search then ranks the newer first, see
``domain/conflicts.py``) and a retry of the same fact finishes the retirements. The facts of
a key are found among the scope key's active facts by the key index (no index of their own).
Named facts are checked before anything is written, on every deployment.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import WRITTEN_AT, fact_document, key_filter
from eden_memory.adapters.stores.mongo.spaces import Space
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.supersession import Supersession, check_named, supersede
from eden_memory.ports.stores import Superseding

NO_VECTOR = {"embedding": 0}
LABELS = ("embedding_model", "embedding_dim")  # a retirement keeps the stored vector's


class Supersessions:
    """New facts that retire what they supersede (``FactStore.add_superseding``)."""

    def __init__(self, ctx: MongoContext, space: Space) -> None:
        self.ctx = ctx
        self._space = space

    async def add(self, items: Sequence[Superseding], now: datetime) -> list[Supersession]:
        if not items:
            return []
        for item in items:
            item.fact.embedding_space.check_vector(len(item.vector))
        for space in dict.fromkeys(i.fact.embedding_space for i in items):
            await self._space.claim(space)
        await self._check_named(items)

        async def work(session: Any) -> list[Supersession]:
            return [await self._add(item, now, session) for item in items]

        return await self.ctx.atomically(work, "superseding facts")

    async def _check_named(self, items: Sequence[Superseding]) -> None:
        """Refuse a named fact that is neither stored nor an earlier item of the call."""
        named = [i.supersedes for i in items if i.supersedes is not None]
        if not named:
            return
        wanted = [self.ctx.ids.record(i, "fact id") for i in named]
        found = await self.ctx.facts.find({"_id": {"$in": wanted}}, NO_VECTOR)
        known = {f.id: f for f in map(self.ctx.read.fact, found)}
        for item in items:
            if item.supersedes is not None:
                check_named(item.fact, item.supersedes, known.get(item.supersedes))
            known.setdefault(item.fact.id, item.fact)

    async def _add(self, item: Superseding, now: datetime, session: Any) -> Supersession:
        stored = await self._get(item.fact.id, session)  # a retry: its retirements are finished
        new = item.fact if stored is None else stored
        named = None if item.supersedes is None else await self._get(item.supersedes, session)
        done = supersede(new, await self._keyed(new, session), now, item.supersedes, named)
        if stored is None:
            twin = await self._twin(done.fact, session) if done.fact.is_active else None
            if twin is not None:
                return Supersession(twin)
            await self._insert(done.fact, item.vector, session)
        elif done.fact != stored:
            await self._replace(done.fact, session)
        for old in done.retired:
            await self._replace(old, session)
        if stored is None or done.fact != stored or done.retired:
            await self.ctx.bump([new.key], session)
        return done

    async def _get(self, fact_id: FactId, session: Any) -> Fact | None:
        query = {"_id": self.ctx.ids.record(fact_id, "fact id")}
        found = await self.ctx.facts.find_one(query, NO_VECTOR, session=session)
        return None if found is None else self.ctx.read.fact(found)

    def _active_of(self, fact: Fact) -> dict[str, Any]:
        query = key_filter(fact.key, self.ctx.ids, with_session=False)
        return {**query, "status": FactStatus.ACTIVE.value}

    async def _keyed(self, fact: Fact, session: Any) -> list[Fact]:
        if fact.supersede_key is None:
            return []
        query = {**self._active_of(fact), "supersede_key": fact.supersede_key}
        found = await self.ctx.facts.find(query, NO_VECTOR, session=session)
        return [self.ctx.read.fact(d) for d in found]

    async def _twin(self, fact: Fact, session: Any) -> Fact | None:
        query = {**self._active_of(fact), "content_hash": fact.content_hash}
        found = await self.ctx.facts.find_one(query, NO_VECTOR, session=session)
        return None if found is None else self.ctx.read.fact(found)

    async def _insert(self, fact: Fact, vector: Sequence[float], session: Any) -> None:
        """An upsert by id (the shard key pinned): inside a transaction an insert that met
        an id already stored would abort everything around it."""
        document = fact_document(fact, self.ctx.ids, vector)
        chosen = {"_id": document.pop("_id"), "agent_id": document.pop("agent_id")}
        update = {"$setOnInsert": document, "$currentDate": {WRITTEN_AT: True}}
        await self.ctx.facts.update_one(chosen, update, upsert=True, session=session)

    async def _replace(self, fact: Fact, session: Any) -> None:
        """Write a fact's new status at its stored version (a retirement keeps the version)."""
        document = fact_document(fact, self.ctx.ids)
        fact_id = document.pop("_id")
        for label in LABELS:
            del document[label]
        document.setdefault("_us", {})
        matched, _ = await self.ctx.facts.update_one(
            {"_id": fact_id, "version": fact.version},
            {"$set": document, "$currentDate": {WRITTEN_AT: True}},
            session=session,
        )
        if not matched:
            raise ConflictError(f"fact {fact.id} changed while it was being superseded")
