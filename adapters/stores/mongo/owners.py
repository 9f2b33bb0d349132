"""Who holds memory, a page at a time, and ids from their first characters.

A page of owners reads the owner field along an index whose equality prefix is the query's
(``fact_owner_recent``, ``reflection_buffer``, ``consolidated_key``), ``limit`` entries a
round, and goes on past the last owner it saw: each round finds one owner at least, so a page
costs at most ``limit + 1`` small reads, however many records each owner holds. Ids are the
``_id`` range ``prefix <= _id < prefix + U+10FFFF`` (no id holds U+10FFFF, and BSON strings
compare as UTF-8 bytes, which sort as code points do).
"""

from __future__ import annotations

from typing import Any

from eden_memory.adapters.stores.mongo.codec import IdCodec, StoredId
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.gateway import Gateway
from eden_memory.domain.scopes import Scope

LAST = "\U0010ffff"


def owner_filter(ids: IdCodec, agent_id: str, scope: Scope) -> tuple[Document, str]:
    """The records of one agent's user or session scope, and the field naming their owner."""
    found: Document = {"agent_id": ids.owner(agent_id, "agent_id"), "scope": scope.value}
    if scope is Scope.USER:
        return found, "user_id"
    return {**found, "user_id": None}, "session_id"  # the index's next field, pinned


async def owners_page(
    gateway: Gateway, found: Document, field: str, after: StoredId | None, limit: int
) -> list[StoredId]:
    """The distinct values of ``field`` after ``after`` among ``found``, ascending, at most
    ``limit``."""
    out: list[StoredId] = []
    last = after
    while len(out) < limit:
        query = {**found, field: {"$gt": last} if last is not None else {"$ne": None}}
        batch = await gateway.find(query, {field: 1, "_id": 0}, sort=[(field, 1)], limit=limit)
        values = list(dict.fromkeys(d[field] for d in batch if d.get(field) is not None))
        out.extend(values[: limit - len(out)])
        if len(batch) < limit or not values:
            break
        last = values[-1]
    return out


async def ids_from(gateway: Gateway, agent: StoredId, prefix: str, limit: int) -> list[str]:
    """The ids of ``agent``'s records in ``gateway`` that start with ``prefix``, ascending."""
    if limit <= 0:
        return []
    query: dict[str, Any] = {"_id": {"$gte": prefix, "$lt": prefix + LAST}, "agent_id": agent}
    found = await gateway.find(query, {"_id": 1}, sort=[("_id", 1)], limit=limit)
    return [str(d["_id"]) for d in found]
