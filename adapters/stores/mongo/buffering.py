"""Buffering reflections: what ``MongoBuffers.add_reflections`` and a completing claim
(``Claims.complete_claim``, inside its transaction) both write.

An upsert with ``$setOnInsert`` on the reflection's id: adding the same reflection twice (a
retried formation) changes nothing and never raises, even inside a transaction, where a
duplicate-key error would abort everything around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.documents import reflection_document
from eden_memory.domain.models import Reflection

SHARD_KEY = ("agent_id",)  # see docs/atlas.md, "Sharding"


async def buffer(ctx: MongoContext, reflections: Sequence[Reflection], session: Any = None) -> None:
    """Insert the reflections not stored yet; leave the others exactly as they are."""
    if not reflections:
        return
    documents = [reflection_document(r, ctx.ids) for r in reflections]
    await ctx.reflections.insert_missing(documents, SHARD_KEY, session=session)
    await ctx.bump((r.key for r in reflections), session=session)
