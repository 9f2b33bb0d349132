"""A LangGraph item's key, as a fact has it: the host's key, or else the fact's id.

A fact put through the store keeps its key as its supersede key (direct ingestion's ``key``):
a later put under the same key supersedes it, so a key names one current fact and its history.
Facts formed from conversations have no key; their id is their key, and a put under that id
supersedes them by id, keeping the id as the new fact's key.

Looking a key up lists the place's facts through the management API, newest first (the store
has no index of keys): a get, put or delete costs one listing call per ``PAGE`` facts of the
user (or the agent). Fine for the hundreds of facts a user has; see ``docs/langgraph.md``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from eden_memory.adapters.integrations.langgraph.namespaces import Place, place_of_fact
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.ports.stores import ListingPosition

PAGE = 500


def key_of(fact: Fact) -> str:
    return fact.supersede_key or fact.id


@dataclass(frozen=True)
class KeyedFacts:
    """The facts of a place under a key."""

    memory: MemoryService

    async def current(self, place: Place, key: str) -> Fact | None:
        """The active fact the key names, if any."""
        found = await self.under(place, key, FactStatus.ACTIVE)
        return found[0] if found else None

    async def under(self, place: Place, key: str, status: FactStatus | None) -> list[Fact]:
        """The fact whose id is ``key``, then those whose key is ``key`` (any status with
        ``status=None``: what a delete removes), newest first."""
        by_id = await self._by_id(place, key)
        found = [by_id] if by_id is not None and status in (None, by_id.status) else []
        async for fact in self._listing(place, status):
            if fact.supersede_key == key and all(fact.id != f.id for f in found):
                found.append(fact)
        return found

    async def _by_id(self, place: Place, key: str) -> Fact | None:
        try:
            fact = await self.memory.admin.get_fact(place.agent_id, key)
        except (NotFoundError, InvalidInputError):  # no such fact, or a key no id can be
            return None
        return fact if place_of_fact(fact) == place else None

    async def _listing(self, place: Place, status: FactStatus | None) -> AsyncIterator[Fact]:
        after: ListingPosition | None = None
        while True:
            page = await self.memory.admin.list_facts(
                place.agent_id,
                user_id=place.user_id,
                scope=place.scope,
                status=status,
                limit=PAGE,
                after=after,
            )
            for fact in page:
                yield fact
            if len(page) < PAGE:
                return
            after = ListingPosition.after(page[-1])


__all__ = ["PAGE", "KeyedFacts", "key_of"]
