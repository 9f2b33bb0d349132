"""The store, cut into the concerns the use cases need, bundled by ``Stores``.

``FactStore`` (facts and vectors), ``FactRanking`` (semantic and keyword rankings, where
engines differ), ``SessionStore`` (sessions, pending messages, claims), ``BufferStore``
(reflections and consolidated blobs) and ``RevisionStore`` (change counters). Every method is
atomic on its own; the ones that must hold across workers (claims, compare-and-set, access
counts) say so, and the contract suite of each concern checks it.
"""

from eden_memory.ports.stores.buffers import BufferStore
from eden_memory.ports.stores.bundle import Stores
from eden_memory.ports.stores.facts import (
    FactOrigin,
    FactQuery,
    FactStore,
    ListingPosition,
    Superseding,
)
from eden_memory.ports.stores.ranking import FactRanking
from eden_memory.ports.stores.revisions import RevisionStore
from eden_memory.ports.stores.sessions import PendingMessage, SessionStore
from eden_memory.ports.stores.vectors import Vector

__all__ = [
    "BufferStore",
    "FactOrigin",
    "FactQuery",
    "FactRanking",
    "FactStore",
    "ListingPosition",
    "PendingMessage",
    "RevisionStore",
    "SessionStore",
    "Stores",
    "Superseding",
    "Vector",
]
