"""``Stores``: one store adapter's concerns, bundled as a plain value.

The composition root builds it; each service takes only the fields it uses. The ports are
cut by who calls them, not by table: one adapter object serves the writes of formation
(``facts``), the reads of answering (``fact_reads``) and the listings of management
(``fact_records``), and the bundle names it once per port. The fields of one ``Stores``
share one handle (a connection, a database, an in-memory state), so what one concern writes
the others see at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from eden_memory.ports.stores.buffers import BufferStore, NoteRecords
from eden_memory.ports.stores.contexts import ContextStore
from eden_memory.ports.stores.fact_reads import FactReads, FactRecords
from eden_memory.ports.stores.facts import FactStore
from eden_memory.ports.stores.ranking import FactRanking
from eden_memory.ports.stores.revisions import RevisionStore
from eden_memory.ports.stores.sessions import SessionRecords, SessionStore


@dataclass(frozen=True)
class Stores:
    """The store, by concern. ``close`` releases the shared handle (once, for all fields)."""

    facts: FactStore
    fact_reads: FactReads
    fact_records: FactRecords
    ranking: FactRanking
    sessions: SessionStore
    session_records: SessionRecords
    buffers: BufferStore
    note_records: NoteRecords
    revisions: RevisionStore
    contexts: ContextStore
    close: Callable[[], Awaitable[None]]

    async def __aenter__(self) -> Stores:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
