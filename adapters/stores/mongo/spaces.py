"""The store's embedding space: set by the first insert, moved only by ``reembed_facts``.

It lives in one document of the ``meta`` collection. Claiming it is a single upsert with
``$setOnInsert``, so two first writers with different embedders cannot both win.
"""

from __future__ import annotations

from collections.abc import Mapping

from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import WRITTEN_AT
from eden_memory.adapters.stores.mongo.errors import DuplicateKey
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import StoreError
from eden_memory.domain.ids import FactId
from eden_memory.ports.stores import Vector

SPACE_ID = "embedding_space"


class Space:
    """The store's embedding space, read by facts and rankings alike."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx

    async def current(self) -> EmbeddingSpace | None:
        found = await self.ctx.meta.find_one({"_id": SPACE_ID})
        if found is None:
            return None
        return self.ctx.read.space(found)

    async def claim(self, space: EmbeddingSpace) -> None:
        """Make ``space`` the store's if it has none; refuse it if it has another."""
        try:
            found = await self.ctx.meta.find_one_and_update(
                {"_id": SPACE_ID},
                {"$setOnInsert": {"model": space.model, "dimension": space.dimension}},
                upsert=True,
            )
        except DuplicateKey:  # a concurrent first writer inserted it: read theirs
            found = None
        found = found or await self.ctx.meta.find_one({"_id": SPACE_ID})
        if found is None:  # pragma: no cover - the upsert or the other writer stored it
            raise StoreError("the embedding space could not be recorded")
        self.ctx.read.space(found).require_same(space)

    async def move(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        for vector in vectors.values():
            space.check_vector(len(vector))
        moves = {self.ctx.ids.record(i, "fact id"): v for i, v in vectors.items()}
        await self.ctx.meta.update_one(
            {"_id": SPACE_ID},
            {"$set": {"model": space.model, "dimension": space.dimension}},
            upsert=True,
        )
        for fact_id, vector in moves.items():
            moved = {
                "embedding": [float(x) for x in vector],
                "embedding_model": space.model,
                "embedding_dim": space.dimension,
            }
            stamped = {"$set": moved, "$currentDate": {WRITTEN_AT: True}}
            await self.ctx.facts.update_one({"_id": fact_id}, stamped)
        self.ctx.space_moved()  # a new dimension needs its index READY before $vectorSearch
