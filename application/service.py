"""``MemoryService``: the one object a host talks to.

A host needs only this: the memory context for a prompt, recording messages after a turn
(formation runs in the background when due), ``search_facts`` for the tool call, session
end, cold-session processing for a scheduler, and the management calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from eden_memory.application.access import AccessTracker
from eden_memory.application.background import BackgroundTasks
from eden_memory.application.calibration import Calibrations
from eden_memory.application.calls import ModelRouter
from eden_memory.application.context import ContextAssembler, MemoryContext
from eden_memory.application.conversation import Conversation
from eden_memory.application.erasure import Erasure, erase_user
from eden_memory.application.formation.pipeline import Formation, Trigger
from eden_memory.application.ingestion import FactInput, IngestReport, ingest_facts
from eden_memory.application.inspection import (
    ConsolidationStatus,
    ScopeStats,
    consolidation_status,
    scope_stats,
)
from eden_memory.application.lifecycle import Lifecycle, Recorded
from eden_memory.application.maintenance import reembed
from eden_memory.application.management import Management
from eden_memory.application.messages import HostMessage, to_messages
from eden_memory.application.portability import ImportReport, export_agent, import_records
from eden_memory.application.reports import ConsolidationOutcome, FormationReport
from eden_memory.application.search import FactSearch, SearchMode, SearchResponse
from eden_memory.domain.ids import AgentId, FactId, SessionId, UserId, check_id, check_id_list
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey, SessionIdentity
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM
from eden_memory.ports.stores import MemoryStore


class MemoryService:
    """Long-term memory for one or many agents, over any store, embedder and LLM."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        llm: LLM | Mapping[ModelRole, LLM],
        clock: Clock,
        settings: MemorySettings | None = None,
        on_report: Callable[[FormationReport], None] | None = None,
    ) -> None:
        self.settings = settings or MemorySettings()
        self.store = store
        self.clock = clock
        models = (
            ModelRouter(dict(llm), self.settings.models)
            if isinstance(llm, Mapping)
            else ModelRouter.single(llm, self.settings.models)
        )
        self._context = ContextAssembler(store, clock, self.settings)
        calibrations = Calibrations(embedder)
        formation = Formation(store, embedder, models, clock, self.settings, calibrations)
        self.background = BackgroundTasks()
        self._access = AccessTracker(store)
        self._search = FactSearch(
            store, embedder, clock, self.settings.search, calibrations, track=self._track_access
        )
        self.reports: list[FormationReport] = []
        self._lifecycle = Lifecycle(formation, self.background, self._keep(on_report))
        self.management = Management(store, embedder, clock, self.settings)
        self.embedder = embedder

    def _track_access(self, ids: list[FactId], now: datetime) -> None:
        if self._access.record(ids, now):
            self.background.spawn(self._access.flush(), name="record-access")

    def _keep(
        self, hook: Callable[[FormationReport], None] | None
    ) -> Callable[[FormationReport], None]:
        def keep(report: FormationReport) -> None:
            self.reports.append(report)
            del self.reports[:-100]  # the last hundred, for inspection
            if hook is not None:
                hook(report)

        return keep

    @staticmethod
    def conversation(
        agent: AgentMemoryConfig | str,
        session_id: str,
        user_ids: Sequence[str] = (),
        *,
        tier: int = 0,
        preview: bool = False,
    ) -> Conversation:
        """Describe a conversation: ``agent`` is a config or an id (both memories enabled)."""
        config = (
            agent if isinstance(agent, AgentMemoryConfig) else AgentMemoryConfig(AgentId(agent))
        )
        users = check_id_list(user_ids, "user_ids", "user_id")
        identity = SessionIdentity(
            config.agent_id, SessionId(session_id), tuple(UserId(u) for u in users)
        )
        return Conversation(config, identity, tier, preview)

    # The hot path ------------------------------------------------------------------

    async def get_context(self, conversation: Conversation, refresh: bool = False) -> MemoryContext:
        """The ``<MemoryContext>`` XML to put in the prompt (empty when there is nothing)."""
        return await self._context.context(conversation.scopes(self.settings), refresh)

    async def search_facts(
        self,
        conversation: Conversation,
        queries: Sequence[str],
        top_k: int | None = None,
        *,
        debug: bool = False,
        mode: SearchMode = SearchMode.HYBRID,
        thresholds: bool = True,
    ) -> SearchResponse:
        """Hybrid search over the facts this conversation may see."""
        scopes = conversation.scopes(self.settings)
        return await self._search.search(
            scopes, queries, top_k, debug=debug, mode=mode, thresholds=thresholds
        )

    def search_offered(self, conversation: Conversation) -> bool:
        """Whether to give the agent the ``search_facts`` tool in this conversation."""
        return conversation.scopes(self.settings).search_offered

    # Lifecycle ---------------------------------------------------------------------

    async def start_session(self, conversation: Conversation) -> None:
        await self._lifecycle.start(conversation)

    async def record_messages(
        self,
        conversation: Conversation,
        messages: Sequence[HostMessage],
        *,
        background: bool = True,
    ) -> Recorded:
        """Record a turn; when formation is due it starts without delaying the caller.

        ``messages`` are ``Message`` values or what the host's SDK has (OpenAI, Anthropic,
        Gemini or plain dicts, see ``application.messages``); the whole batch is checked
        before anything is recorded."""
        batch = to_messages(messages, self.clock.now())
        return await self._lifecycle.record(conversation, batch, background)

    async def form_memories(self, conversation: Conversation) -> FormationReport | None:
        """Form pending messages now, if they are due (or at least ``min_messages`` when cold)."""
        ids = conversation.session
        return await self._lifecycle.form(ids.agent_id, ids.session_id, Trigger.COLD)

    async def end_session(self, conversation: Conversation) -> FormationReport | None:
        """Form what is left and consolidate the session's buffers, whatever their size.

        The report lists each consolidation, a failed one included (its buffer is kept);
        None when there was nothing to form or consolidate."""
        return await self._lifecycle.end(conversation)

    async def consolidate(
        self, conversation: Conversation, *, force: bool = False
    ) -> list[ConsolidationOutcome]:
        """Consolidate the conversation's scopes whose buffers are due (any, with ``force``)."""
        return await self._lifecycle.consolidate(conversation, force)

    async def process_cold_sessions(
        self, now: datetime | None = None, limit: int = 100
    ) -> list[FormationReport]:
        """For a scheduler: form every session quiet for ``cold_after_minutes``."""
        return await self._lifecycle.process_cold(now, limit)

    async def wait_for_background(self) -> None:
        """Wait for background work (formations, access counts) to finish (tests, shutdown)."""
        await self.background.drain()
        await self._access.flush()

    async def aclose(self) -> None:
        await self.wait_for_background()

    # Inspection and portability -------------------------------------------------------

    def keys_for(
        self, agent_id: str, user_id: str | None = None, session_id: str | None = None
    ) -> list[ScopeKey]:
        keys = [ScopeKey.agent(agent_id)]
        if user_id is not None:
            keys.append(ScopeKey.user(agent_id, user_id))
        if session_id is not None:
            keys.append(ScopeKey.session(agent_id, session_id))
        return keys

    async def stats(
        self, agent_id: str, user_id: str | None = None, session_id: str | None = None
    ) -> list[ScopeStats]:
        return await scope_stats(
            self.store, self.settings, self.keys_for(agent_id, user_id, session_id)
        )

    async def consolidation_status(
        self, agent_id: str, user_id: str | None = None, session_id: str | None = None
    ) -> list[ConsolidationStatus]:
        keys = self.keys_for(agent_id, user_id, session_id)
        return await consolidation_status(self.store, self.settings, keys)

    async def erase_user(self, agent_id: str, user_id: str) -> Erasure:
        """Remove all memory of one user with one agent (GDPR-style erasure)."""
        return await erase_user(self.store, agent_id, user_id)

    async def reembed(
        self,
        agent_ids: Sequence[str],
        batch_size: int = 256,
        on_progress: Callable[[int], None] | None = None,
    ) -> int:
        """Move these agents' facts to this service's embedder (after changing models)."""
        agents = check_id_list(agent_ids, "agent_ids", "agent_id")
        return await reembed(self.store, self.embedder, agents, batch_size, on_progress)

    def export(self, agent_id: str) -> AsyncIterator[str]:
        """One agent's memory as JSON Lines (see ``portability``); the id is checked now."""
        return export_agent(self.store, check_id(agent_id, "agent_id"), self.clock.now())

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
        return await ingest_facts(
            self.store,
            self.embedder,
            self.clock,
            items,
            batch_size,
            max_words=max_words,
            on_progress=on_progress,
        )

    async def import_lines(
        self, lines: Iterable[str], on_progress: Callable[[int], None] | None = None
    ) -> ImportReport:
        """Import an export (validated in full first); ``on_progress`` gets facts written."""
        return await import_records(self.store, self.embedder, lines, on_progress)


__all__ = ["MemoryService"]
