"""The store, cut into the concerns the use cases need, bundled by ``Stores``.

Facts: ``FactStore`` (what formation and ingestion write), ``FactReads`` (what answering
reads), ``FactRecords`` (what management lists and removes), sharing ``FactLookup``;
``FactRanking`` (semantic and keyword rankings, where engines differ); ``SessionStore``
(sessions, pending messages, claims) and ``SessionRecords`` (a user's sessions, for management
and erasure); ``BufferStore`` (reflections and blobs as formation and consolidation use them)
and ``NoteRecords`` (their management), sharing ``NoteLookup``; ``RevisionStore`` (change
counters) and ``ContextStore`` (rendered contexts kept with their sessions). One adapter object
implements every port of its concern. Every method is
atomic on its own; the ones that must hold across workers (claims, compare-and-set, access
counts) say so, and the contract suite of each concern checks it.
"""

from eden_memory.ports.stores.buffers import BufferStore, NoteLookup, NoteRecords
from eden_memory.ports.stores.bundle import Stores
from eden_memory.ports.stores.contexts import ContextStore, StoredContext, context_variant
from eden_memory.ports.stores.fact_reads import FactReads, FactRecords
from eden_memory.ports.stores.facts import (
    FactLookup,
    FactOrigin,
    FactQuery,
    FactStore,
    ListingPosition,
    Superseding,
)
from eden_memory.ports.stores.ranking import FactRanking
from eden_memory.ports.stores.revisions import RevisionStore
from eden_memory.ports.stores.sessions import PendingMessage, SessionRecords, SessionStore
from eden_memory.ports.stores.vectors import Vector

__all__ = [
    "BufferStore",
    "ContextStore",
    "FactLookup",
    "FactOrigin",
    "FactQuery",
    "FactRanking",
    "FactReads",
    "FactRecords",
    "FactStore",
    "ListingPosition",
    "NoteLookup",
    "NoteRecords",
    "PendingMessage",
    "RevisionStore",
    "SessionRecords",
    "SessionStore",
    "StoredContext",
    "Stores",
    "Superseding",
    "Vector",
    "context_variant",
]
