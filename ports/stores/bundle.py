"""``Stores``: one store adapter's concerns, bundled as a plain value.

The composition root builds it; each service takes only the fields it uses. The fields of
one ``Stores`` share one handle (a connection, a database, an in-memory state), so what one
concern writes the others see at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from eden_memory.ports.stores.buffers import BufferStore
from eden_memory.ports.stores.facts import FactStore
from eden_memory.ports.stores.ranking import FactRanking
from eden_memory.ports.stores.revisions import RevisionStore
from eden_memory.ports.stores.sessions import SessionStore


class MemoryStore(FactStore, FactRanking, BufferStore, SessionStore, RevisionStore, Protocol):
    """Every concern as one adapter object, for an adapter not (yet) split by concern."""

    async def close(self) -> None: ...


@dataclass(frozen=True)
class Stores:
    """The store, by concern. ``close`` releases the shared handle (once, for all fields)."""

    facts: FactStore
    ranking: FactRanking
    sessions: SessionStore
    buffers: BufferStore
    revisions: RevisionStore
    close: Callable[[], Awaitable[None]]

    @classmethod
    def of(cls, store: MemoryStore) -> Stores:
        """One adapter object serving every concern."""
        return cls(store, store, store, store, store, store.close)
