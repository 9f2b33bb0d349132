"""``MemoryService``: the one object a host talks to.

A host needs only this: the memory context for a prompt, recording messages after a turn
(formation runs in the background when due), ``search_facts`` for the tool call, session
end and cold-session processing for a scheduler. Everything done outside a conversation
(records, stats, erasure, export and import, ingestion, re-embedding) is ``memory.admin``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from eden_memory.application.administration.admin import Admin
from eden_memory.application.arguments import count, optional_time
from eden_memory.application.calls import ModelRouter
from eden_memory.application.context.assembly import ContextAssembler, ContextLabels, MemoryContext
from eden_memory.application.context.session_access import caller_checked, reader_checked
from eden_memory.application.conversation import Conversation
from eden_memory.application.formation.background import BackgroundTasks
from eden_memory.application.formation.consolidation import Consolidator
from eden_memory.application.formation.lifecycle import Lifecycle, Recorded
from eden_memory.application.formation.pipeline import Formation, Trigger
from eden_memory.application.formation.reports import ConsolidationOutcome, FormationReport
from eden_memory.application.messages import HostMessage, to_messages
from eden_memory.application.metering import MeteredEmbedder, MeteredLLM, UsageMeter
from eden_memory.application.search import FactSearch, SearchMode, SearchResponse
from eden_memory.application.search.access import AccessTracker
from eden_memory.application.search.calibration import Calibrations
from eden_memory.application.search.expansion import QueryExpander
from eden_memory.application.search.judging import search_judge
from eden_memory.application.search.reranking import search_reranker
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.ids import AgentId, FactId
from eden_memory.domain.model_choice import ModelRole, reflection_role
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.stores import Stores
from eden_memory.ports.telemetry import Telemetry


class MemoryService:
    """Long-term memory for one or many agents, over any store, embedder and LLM.

    ``stores`` is the store by concern (``memory_stores()``, ``open_sqlite(path)``,
    ``mongo_stores(db)``, or what ``open_memory`` builds); each collaborator below takes only
    the concerns it uses. ``telemetry`` receives its steps and model calls (off by default;
    ``adapters.telemetry.otel.OtelTelemetry`` for OpenTelemetry). ``reranker`` judges a
    search's best candidates when ``settings.search.rerank`` is on (for ``llm``, the memory's
    own model when none is given)."""

    def __init__(
        self,
        stores: Stores,
        embedder: Embedder,
        llm: LLM | Mapping[ModelRole, LLM],
        clock: Clock,
        settings: MemorySettings | None = None,
        on_report: Callable[[FormationReport], None] | None = None,
        meter: UsageMeter | None = None,
        telemetry: Telemetry | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.settings = settings or MemorySettings()
        self.clock = clock
        traced = telemetry or NO_TELEMETRY
        # Every call is metered here, once (the host's meter, or one of the service's own),
        # and reported to the telemetry (off unless given).
        used = meter or UsageMeter()
        embedder = MeteredEmbedder(embedder, used, traced)
        models = (
            ModelRouter(
                {role: MeteredLLM(c, used, traced) for role, c in llm.items()},
                self.settings.models,
            )
            if isinstance(llm, Mapping)
            else ModelRouter.single(MeteredLLM(llm, used, traced), self.settings.models)
        )
        self._background = BackgroundTasks()
        self._context = ContextAssembler(
            stores.fact_reads,
            stores.buffers,
            stores.revisions,
            stores.contexts,
            stores.sessions,
            clock,
            self.settings,
            spawn=lambda saving: self._background.spawn(saving, name="keep-context"),
            telemetry=traced,
        )
        calibrations = Calibrations(embedder)
        # One consolidator, for formations and for the session's own consolidations.
        consolidator = Consolidator(stores.buffers, models, clock, self.settings.consolidation)
        formation = Formation(
            stores,
            embedder,
            models,
            clock,
            self.settings,
            calibrations,
            consolidator,
            used,
            telemetry=traced,
        )
        self._access = AccessTracker(stores.fact_reads)
        self._search = FactSearch(
            stores.fact_reads,
            stores.ranking,
            embedder,
            clock,
            self.settings.search,
            calibrations,
            track=self._track_access,
            telemetry=traced,
            reranker=search_reranker(self.settings.search, models, reranker),
            expander=QueryExpander(
                models,
                self.settings.search.expand_model,
                self.settings.search.max_query_chars,
                telemetry=traced,
            ),
            judge=search_judge(self.settings.search, models),
        )
        self.reports: list[FormationReport] = []
        self._lifecycle = Lifecycle(
            formation,
            consolidator,
            stores.sessions,
            clock,
            self.settings,
            self._background,
            used,
            self._keep(on_report),
        )
        self.admin = Admin(stores, embedder, clock, self.settings, used, consolidator)
        self._sessions = stores.sessions

    def _track_access(self, ids: list[FactId], now: datetime) -> None:
        if self._access.record(ids, now):
            self._background.spawn(self._access.flush(), name="record-access")

    def _keep(
        self, hook: Callable[[FormationReport], None] | None
    ) -> Callable[[FormationReport], None]:
        def keep(report: FormationReport) -> None:
            self.reports.append(report)
            del self.reports[:-100]  # the last hundred, for inspection
            if hook is not None:
                hook(report)

        return keep

    def conversation(
        self,
        agent: AgentMemoryConfig | str,
        session_id: str,
        user_ids: Sequence[str] = (),
        *,
        tier: int = 0,
        preview: bool = False,
        user_name: str | None = None,
    ) -> Conversation:
        """Describe a conversation: ``agent`` is a config or an id (both memories enabled).

        A user at or above the premium tier, or ``preview``, gets the premium reflection
        model; that is decided here, once, and kept with the session. ``user_name``, the
        sole user's name, is shown with their memory in the context (and never stored)."""
        config = (
            agent if isinstance(agent, AgentMemoryConfig) else AgentMemoryConfig(AgentId(agent))
        )
        config.settings.over(self.settings)  # an agent's settings that clash are refused now
        role = reflection_role(tier, preview, self.settings.models)
        return SessionProfile.of(
            config,
            session_id,
            user_ids,
            premium=role is ModelRole.REFLECTION_PREMIUM,
            user_name=user_name,
        )

    # The hot path ------------------------------------------------------------------

    async def get_context(self, conversation: Conversation, refresh: bool = False) -> MemoryContext:
        """The ``<MemoryContext>`` XML to put in the prompt (empty when there is nothing).

        Raises ``SessionUsersError`` when the session was recorded with other users (a
        session id reused for another user's conversation): its turn would be refused too."""
        settings = conversation.effective(self.settings)
        labels = ContextLabels(
            conversation.user_name,
            conversation.memory_instructions if settings.context.show_instructions else "",
        )
        return await self._context.context(
            conversation.active(settings),
            refresh,
            settings.facts,
            labels,
            users=conversation.user_ids,
        )

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
        """Hybrid search over the facts this conversation may see (``SessionUsersError``, as
        ``get_context``, for a session recorded with other users)."""
        settings = conversation.effective(self.settings)
        scopes = conversation.active(settings)
        await reader_checked(self._sessions, scopes, conversation.user_ids)
        search = self._search
        if settings.search != search.settings:  # the agent's own search defaults
            search = replace(search, settings=settings.search)
        return await search.search(
            scopes,
            queries,
            top_k,
            debug=debug,
            mode=mode,
            thresholds=thresholds,
        )

    def search_offered(self, conversation: Conversation) -> bool:
        """Whether to give the agent the ``search_facts`` tool in this conversation."""
        return conversation.active(conversation.effective(self.settings)).search_offered

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
        await caller_checked(self._sessions, conversation)
        return await self._lifecycle.form(
            conversation.agent_id, conversation.session_id, Trigger.COLD
        )

    async def end_session(self, conversation: Conversation) -> FormationReport | None:
        """Form what is left and consolidate the session's buffers, whatever their size.

        The report lists each consolidation, a failed one included (its buffer is kept);
        None when there was nothing to form or consolidate. A conversation of other users
        than the session's is refused (``SessionUsersError``); a group member may end it."""
        await caller_checked(self._sessions, conversation)
        return await self._lifecycle.end(conversation)

    async def consolidate(
        self, conversation: Conversation, *, force: bool = False
    ) -> list[ConsolidationOutcome]:
        """Consolidate the conversation's scopes whose buffers are due (any, with ``force``)."""
        await caller_checked(self._sessions, conversation)
        return await self._lifecycle.consolidate(conversation, force)

    async def process_cold_sessions(
        self, now: datetime | None = None, limit: int = 100
    ) -> list[FormationReport]:
        """For a scheduler: form every session quiet for ``cold_after_minutes``."""
        at = optional_time("now", now)
        return await self._lifecycle.process_cold(at, count("limit", limit))

    async def wait_for_background(self) -> None:
        """Wait for background work (formations, access counts) to finish (tests, shutdown)."""
        await self._background.drain()
        await self._access.flush()

    async def aclose(self) -> None:
        await self.wait_for_background()

    def __deepcopy__(self, memo: dict[int, object]) -> MemoryService:
        """The service itself: it is a shared resource (store connections, background work,
        a usage meter holding a context variable), not a value. Frameworks deep-copy agents,
        tools and requests that hold it; each copy must reach the same memory."""
        return self


__all__ = ["MemoryService"]
