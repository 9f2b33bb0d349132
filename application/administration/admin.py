"""``Admin``: everything a host does to memory outside a conversation, behind one face.

``MemoryService`` keeps the hot path and the session lifecycle; what an operator, a memory
UI or a maintenance job does — read and edit records (``Management``, which ``Admin`` holds
and whose methods it offers as its own), stats, erasure, export and import, ingestion,
re-embedding — is ``memory.admin``. None of it touches the
context cache: every change moves the store's revision counters, which the cache reads.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from eden_memory.application.administration.erasure import Erasure, UserErasure
from eden_memory.application.administration.import_owners import AgentMap
from eden_memory.application.administration.inspection import (
    ConsolidationStatus,
    ScopeStats,
    consolidation_status,
    fact_window,
    scope_stats,
)
from eden_memory.application.administration.lookup import resolve
from eden_memory.application.administration.maintenance import reembed
from eden_memory.application.administration.management import Management, Offered
from eden_memory.application.administration.owners import (
    OwnerPage,
    agents_with_memory,
    sessions_with_memory,
    users_with_memory,
)
from eden_memory.application.administration.portability import (
    ImportReport,
    export_agent,
    import_records,
)
from eden_memory.application.administration.provenance import Contributions, contributions_of
from eden_memory.application.arguments import count
from eden_memory.application.formation.consolidation import Consolidator
from eden_memory.application.formation.reports import Usage
from eden_memory.application.ingestion.facts import FactInput, IngestReport, ingest_facts
from eden_memory.application.metering import UsageMeter
from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.fact_window import FactWindow
from eden_memory.domain.ids import (
    AgentId,
    FactId,
    ReflectionId,
    agent_id_of,
    check_id_list,
    session_id_of,
    user_id_of,
)
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import ScopeKey
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import Stores


@dataclass
class Admin:
    """Records (``records``, a ``Management``), stats, erasure, portability and maintenance.

    ``meter`` counts every LLM and embedding call of the service (``snapshot()``)."""

    stores: Stores
    embedder: Embedder
    clock: Clock
    settings: MemorySettings
    meter: UsageMeter = field(default_factory=UsageMeter)
    # Rebuilds blobs an erasure took notes from; None: they are flagged for a later rebuild.
    consolidator: Consolidator | None = None
    records: Management = field(init=False)

    def __post_init__(self) -> None:
        self.records = Management(self.stores, self.embedder, self.clock, self.settings)

    # What a memory UI reads and edits, offered from ``records`` under the same names.
    list_facts = Offered(Management.list_facts)
    get_fact = Offered(Management.get_fact)
    fact_history = Offered(Management.fact_history)
    edit_fact = Offered(Management.edit_fact)
    delete_fact = Offered(Management.delete_fact)
    list_reflections = Offered(Management.list_reflections)
    get_reflection = Offered(Management.get_reflection)
    reflection_history = Offered(Management.reflection_history)
    edit_reflection = Offered(Management.edit_reflection)
    delete_reflection = Offered(Management.delete_reflection)
    get_consolidated = Offered(Management.get_consolidated)
    replace_consolidated = Offered(Management.replace_consolidated)

    async def stats(
        self,
        agent_id: str,
        user_id: str | None = None,
        session_id: str | None = None,
        *,
        agent_settings: AgentSettings | None = None,
    ) -> list[ScopeStats]:
        """Per scope: words, limits, buffers; ``agent_settings``: the agent's own limits."""
        return await scope_stats(
            self.stores.fact_reads,
            self.stores.buffers,
            self._effective(agent_settings),
            _keys(agent_id, user_id, session_id),
        )

    async def consolidation_status(
        self,
        agent_id: str,
        user_id: str | None = None,
        session_id: str | None = None,
        *,
        agent_settings: AgentSettings | None = None,
    ) -> list[ConsolidationStatus]:
        """Buffers against thresholds; ``agent_settings``: the agent's own thresholds."""
        keys = _keys(agent_id, user_id, session_id)
        settings = self._effective(agent_settings)
        return await consolidation_status(self.stores.buffers, settings, keys)

    def _effective(self, agent_settings: AgentSettings | None) -> MemorySettings:
        if agent_settings is None:
            return self.settings
        if not isinstance(agent_settings, AgentSettings):
            raise InvalidInputError(
                f"agent_settings must be an AgentSettings, got {type(agent_settings).__name__}"
            )
        return agent_settings.over(self.settings)

    async def fact_window(self, conversation: SessionProfile, shown: int) -> FactWindow:
        """How many of the facts ``conversation`` may see its context's recent list shows
        (``shown``, the context's ``facts``): what to say beside an empty context."""
        settings = conversation.effective(self.settings)
        scopes = conversation.active(settings)
        return await fact_window(self.stores.fact_reads, scopes, shown, settings.facts)

    async def agents_with_memory(self, after: str | None = None, limit: int = 50) -> OwnerPage:
        """A page of the store's agents that hold memory (facts of any status or notes, in any
        scope), ascending; ``next_after`` continues it."""
        return await agents_with_memory(
            self.stores.fact_records, self.stores.note_records, after, limit
        )

    async def users_with_memory(
        self, agent_id: str, after: str | None = None, limit: int = 50
    ) -> OwnerPage:
        """A page of the agent's users who hold memory (facts of any status, a blob or notes),
        ascending; ``next_after`` continues it."""
        stores = self.stores
        agent = agent_id_of(agent_id)
        return await users_with_memory(stores.fact_reads, stores.note_records, agent, after, limit)

    async def sessions_with_memory(
        self, agent_id: str, after: str | None = None, limit: int = 50
    ) -> OwnerPage:
        """A page of the agent's sessions that hold notes (a blob or reflections)."""
        agent = agent_id_of(agent_id)
        return await sessions_with_memory(self.stores.note_records, agent, after, limit)

    async def resolve_fact_id(self, agent_id: str, given: str) -> FactId:
        """The fact a whole id, or the first characters of one, names (``lookup``): for ids a
        person types, where a cut id must work or say which facts it could mean."""
        agent = agent_id_of(agent_id)
        found = await resolve(
            agent,
            given,
            "fact",
            lambda p, n: self.stores.fact_records.ids_starting_with(agent, p, n),
        )
        return FactId(found)

    async def resolve_reflection_id(self, agent_id: str, given: str) -> ReflectionId:
        """``resolve_fact_id`` for a reflection."""
        agent, buffers = agent_id_of(agent_id), self.stores.note_records
        found = await resolve(
            agent,
            given,
            "reflection",
            lambda p, n: buffers.reflection_ids_starting_with(agent, p, n),
        )
        return ReflectionId(found)

    async def erase_user(self, agent_id: str, user_id: str) -> Erasure:
        """Remove all memory of one user with one agent (GDPR-style erasure): their own
        scope and sessions, and what of the agent's shared memory came from them alone
        (``application.administration.erasure``). The report lists everything removed,
        changed, rebuilt and flagged."""
        agent, user = agent_id_of(agent_id), user_id_of(user_id)
        erasure = UserErasure(self.stores, self.embedder, self.clock, self.consolidator)
        with self.meter.scope():
            return await erasure.erase(agent, user)

    async def contributions(self, agent_id: str, user_id: str) -> Contributions:
        """What one user's messages formed or changed in an agent's memory: facts (formed,
        rewritten or retired by their words), notes, and the blob versions that absorbed
        their notes. What ``erase_user`` would look at."""
        agent, user = agent_id_of(agent_id), user_id_of(user_id)
        return await contributions_of(self.stores, agent, user)

    async def reembed(
        self,
        agent_ids: Sequence[str],
        batch_size: int = 256,
        on_progress: Callable[[int], None] | None = None,
    ) -> int:
        """Move these agents' facts to this service's embedder (after changing models)."""
        agents = [AgentId(a) for a in check_id_list(agent_ids, "agent_ids", "agent_id")]
        if count("batch_size", batch_size) == 0:  # a page of none would re-embed nothing
            raise InvalidInputError("batch_size must be 1 or more, got 0")
        return await reembed(
            self.stores.fact_records, self.embedder, agents, batch_size, on_progress
        )

    def export(self, agent_id: str) -> AsyncIterator[str]:
        """One agent's memory as JSON Lines (see ``portability``); the id is checked now."""
        return export_agent(
            self.stores.fact_records,
            self.stores.note_records,
            agent_id_of(agent_id),
            self.clock.now(),
        )

    async def import_lines(
        self,
        lines: Iterable[str],
        on_progress: Callable[[int], None] | None = None,
        *,
        agent_id: str | Mapping[str, str] | None = None,
    ) -> ImportReport:
        """Import an export (validated in full first); ``on_progress`` gets facts written.

        Records are written only into the agent the header names, unless ``agent_id`` says
        otherwise: an agent id imports the export into that agent, a mapping sends each
        exported agent to its target. Records moved to another agent get ids of their own
        (``domain.agent_moves``), so importing again finds them present.
        """
        agents = AgentMap.of(agent_id)
        return await import_records(
            self.stores.facts, self.stores.buffers, self.embedder, lines, on_progress, agents
        )

    async def add_facts(
        self,
        items: Iterable[FactInput | Mapping[str, Any]],
        *,
        batch_size: int = 256,
        max_words: int | None = None,
        on_progress: Callable[[int], None] | None = None,
    ) -> IngestReport:
        """Store facts the host already has, with no LLM: validated, deduplicated by content
        hash, embedded ``batch_size`` at a time. Bad items are rejected one by one, with reasons."""
        with self.meter.scope() as spent:
            report = await ingest_facts(
                self.stores.facts,
                self.embedder,
                self.clock,
                items,
                batch_size,
                max_words=max_words,
                on_progress=on_progress,
            )
        report.usage = Usage.of(spent.snapshot())
        return report


def _keys(agent_id: str, user_id: str | None, session_id: str | None) -> list[ScopeKey]:
    """The keys asked about, each id checked (a host's strings, typed from here in)."""
    agent = agent_id_of(agent_id)
    keys = [ScopeKey.agent(agent)]
    if user_id is not None:
        keys.append(ScopeKey.user(agent, user_id_of(user_id)))
    if session_id is not None:
        keys.append(ScopeKey.session(agent, session_id_of(session_id)))
    return keys
