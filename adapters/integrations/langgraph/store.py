"""``EdenStore``: LangGraph's ``BaseStore`` over eden-memory's facts, sync and async.

An item is a fact: its value is ``{"content": "<one line>"}``, its namespace the fact's scope
(``namespaces``), its key the host's key or the fact's id (``keys``). So what a graph puts is
found by ``search_facts`` in conversations, and what conversations formed is found here.

- ``put``: direct ingestion (no LLM): embedded, deduplicated, superseding the key's fact;
  ``put(..., None)`` and ``delete`` remove the key's facts for good (the management API).
- ``get``: the key's current fact. ``search`` with a ``query``: hybrid ``search_facts`` over
  that one scope; without: the scope's facts, newest first.
- ``list_namespaces``: one agent's (the prefix names it), from the users who hold memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from eden_memory.adapters.integrations.langgraph.bridge import LoopBridge
from eden_memory.adapters.integrations.langgraph.keys import KeyedFacts, key_of
from eden_memory.adapters.integrations.langgraph.namespaces import (
    Place,
    agent_named,
    matches,
    place_of,
    place_of_fact,
)
from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ConflictError, InvalidInputError
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import AgentMemoryConfig

# search_facts is a conversation's; the store's searches are of a scope, in no session.
SEARCH_SESSION = "langgraph-store"


class EdenStore(BaseStore):
    """LangGraph's long-term memory on eden-memory (see the module).

    ``loop``: the event loop the memory runs on, for sync calls from other threads; by
    default the one running where the store is made (``bridge``)."""

    def __init__(
        self, memory: MemoryService, *, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        self.memory = memory
        self.bridge = LoopBridge(loop)
        self._keys = KeyedFacts(memory)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        todo = list(ops)
        return self.bridge.run(lambda: self._all(todo))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        todo = list(ops)
        return await self.bridge.arun(lambda: self._all(todo))

    async def _all(self, ops: list[Op]) -> list[Result]:
        return [await self._one(op) for op in ops]  # in order: a put, then a get of it

    async def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            fact = await self._keys.current(place_of(op.namespace), op.key)
            return None if fact is None else _item(fact)
        if isinstance(op, PutOp):
            await self._put(op)
            return None
        if isinstance(op, SearchOp):
            return await self._search(op)
        if isinstance(op, ListNamespacesOp):
            return await self._namespaces(op)
        raise InvalidInputError(f"unknown store operation {type(op).__name__}")

    async def _put(self, op: PutOp) -> None:
        place = place_of(op.namespace)
        if op.ttl is not None:
            raise InvalidInputError("ttl is not supported: a fact stays until deleted")
        if op.value is None:
            for fact in await self._keys.under(place, op.key, None):
                await self.memory.admin.delete_fact(place.agent_id, fact.id)
            return
        current = await self._keys.current(place, op.key)
        item = {
            "content": _content(op.value),
            "scope": place.scope.value,
            "agent_id": place.agent_id,
            "user_id": place.user_id,
            "formed_at": self.memory.clock.now(),
            "key": op.key if current is None else key_of(current),
        }
        if current is not None and current.supersede_key is None:
            item["supersedes"] = current.id  # a formed fact: superseded by its id
        report = await self.memory.admin.add_facts([item])
        if report.rejected:
            raise InvalidInputError(f"item {op.key!r} not stored: {report.rejected[0].reason}")
        if report.duplicates and await self._keys.current(place, op.key) is None:
            raise ConflictError(
                f"item {op.key!r} not stored: {place.namespace} already holds this content "
                "under another key (eden-memory keeps one copy of a fact)"
            )

    async def _search(self, op: SearchOp) -> list[SearchItem]:
        place = place_of(op.namespace_prefix)
        if op.filter:
            raise InvalidInputError("filter is not supported: a fact's value is its content")
        if not op.query:
            facts = await self.memory.admin.list_facts(
                place.agent_id,
                user_id=place.user_id,
                scope=place.scope,
                limit=op.limit,
                offset=op.offset,
            )
            return [_hit(fact) for fact in facts]
        found = await self.memory.search_facts(
            self._conversation(place), [op.query], self._top_k(op)
        )
        return [_hit(hit.fact, hit.relevance) for hit in found.results[op.offset :]]

    def _conversation(self, place: Place) -> Conversation:
        user = place.user_id is not None
        agent = AgentMemoryConfig(
            place.agent_id, user_memory_enabled=user, agent_memory_enabled=not user
        )
        return self.memory.conversation(
            agent, SEARCH_SESSION, [] if place.user_id is None else [place.user_id]
        )

    def _top_k(self, op: SearchOp) -> int:
        most = self.memory.settings.search.max_top_k
        if not 1 <= op.limit + op.offset <= most:
            raise InvalidInputError(
                f"a search with a query finds at most {most} items "
                f"(limit + offset), got {op.limit} + {op.offset}"
            )
        return op.limit + op.offset

    async def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        agent = agent_named(op.match_conditions)
        admin = self.memory.admin
        shared = await admin.list_facts(agent, scope=Place(agent).scope, limit=1)
        places = [Place(agent)] if shared else []
        after: str | None = None
        while True:
            page = await admin.users_with_memory(agent, after, limit=500)
            places += [Place(agent, user) for user in page.names]
            if page.next_after is None:
                break
            after = page.next_after
        found = [p.namespace for p in places if matches(p.namespace, op.match_conditions)]
        if op.max_depth is not None:
            found = sorted({ns[: op.max_depth] for ns in found})
        return sorted(found)[op.offset : op.offset + op.limit]


def _content(value: Mapping[str, Any]) -> str:
    """The fact's text: ``value["content"]``; other fields would be lost, so are refused."""
    if not isinstance(value, Mapping) or not isinstance(value.get("content"), str):
        raise InvalidInputError('an item\'s value must be {"content": "<the fact, one line>"}')
    extra = sorted(set(value) - {"content"})
    if extra:
        raise InvalidInputError(
            f"an item's value holds only content (eden-memory keeps a fact's text), got {extra}"
        )
    return str(value["content"])


def _item(fact: Fact) -> Item:
    return Item(
        namespace=place_of_fact(fact).namespace,
        key=key_of(fact),
        value={"content": fact.content},
        created_at=fact.created_at,
        updated_at=fact.updated_at,
    )


def _hit(fact: Fact, score: float | None = None) -> SearchItem:
    """A found fact; ``score``: its relevance (0 to 1, on one scale for every embedder)."""
    item = _item(fact)
    return SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score)


__all__ = ["SEARCH_SESSION", "EdenStore"]
