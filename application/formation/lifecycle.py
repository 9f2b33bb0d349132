"""A session's life: start, turns recorded, formation when due, end, and cold sessions."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from eden_memory.application.conversation import Conversation
from eden_memory.application.formation.background import BackgroundTasks
from eden_memory.application.formation.consolidation import Consolidator
from eden_memory.application.formation.pipeline import Formation, Trigger
from eden_memory.application.formation.reports import ConsolidationOutcome, FormationReport, Usage
from eden_memory.application.metering import UsageMeter
from eden_memory.domain.error_summary import summary
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.models import Message, SessionState
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.triggers import cold_cutoff, formation_due, is_cold, weighted_tokens
from eden_memory.ports.clock import Clock
from eden_memory.ports.stores import PendingMessage, SessionStore

# The logger keeps the name hosts filter by, from before the module moved into a folder.
log = logging.getLogger("eden_memory.application.lifecycle")


@dataclass(frozen=True)
class Recorded:
    """What recording a turn did: the session's state, whether a formation was started, and
    how many messages were stored (a host's system prompts and the memory's own tool calls
    are left out, so this can be fewer than the host sent)."""

    state: SessionState | None
    formation_started: bool
    messages: int = 0


@dataclass
class Lifecycle:
    formation: Formation
    consolidator: Consolidator
    sessions: SessionStore
    clock: Clock
    settings: MemorySettings
    tasks: BackgroundTasks
    meter: UsageMeter
    on_report: Callable[[FormationReport], None] = lambda report: None

    async def start(self, conversation: Conversation) -> SessionState | None:
        """Register the session (and its memory settings) before its first turn."""
        return (await self.record(conversation, [], background=False)).state

    async def record(
        self, conversation: Conversation, messages: Sequence[Message], background: bool = True
    ) -> Recorded:
        """Store a turn's messages; start a formation off the caller's path when one is due."""
        s = conversation.effective(self.settings)
        if not s.enabled:
            return Recorded(None, False)
        pending = [PendingMessage(m, weighted_tokens([m], s.formation)) for m in messages]
        now = self.clock.now()
        # The user's name is for the context only: no store keeps it.
        stored = replace(conversation, user_name=None)
        state = await self.sessions.record_messages(stored, pending, now)
        if not formation_due(state.pending_messages, state.pending_tokens, s.formation):
            return Recorded(state, False, len(pending))
        work = self.form(state.agent_id, state.session_id, Trigger.DUE)
        if background:
            self.tasks.spawn(work, name=f"form:{state.agent_id}:{state.session_id}")
        else:
            await work
        return Recorded(state, True, len(pending))

    async def form(
        self, agent_id: AgentId, session_id: SessionId, trigger: Trigger
    ) -> FormationReport | None:
        report = await self.formation.run(agent_id, session_id, trigger)
        if report is not None:
            self.on_report(report)
        return report

    async def end(self, conversation: Conversation) -> FormationReport | None:
        """Form what is left and consolidate every non-empty buffer of the session's scopes.

        With nothing left to form, the report (if any buffer was consolidated, or failed to
        be) has no messages and only the consolidations, so a failure is reported either way.
        """
        agent_id, session_id = conversation.agent_id, conversation.session_id
        await self.sessions.end_session(agent_id, session_id, self.clock.now())
        report = await self.form(agent_id, session_id, Trigger.END)
        if report is not None:
            return report
        with self.meter.scope() as spent:
            outcomes = await self._consolidate(conversation, True)
        if not outcomes:
            return None
        report = FormationReport(
            agent_id,
            session_id,
            Trigger.END.value,
            consolidations=outcomes,
            usage=Usage.of(spent.snapshot()),
        )
        self.on_report(report)
        return report

    async def consolidate(
        self, conversation: Conversation, force: bool = False
    ) -> list[ConsolidationOutcome]:
        """Consolidate the conversation's due buffers (every non-empty one with ``force``);
        a failed scope is an outcome with status ``failed`` and its buffer kept."""
        return await self._consolidate(conversation, force)

    async def _consolidate(
        self, conversation: Conversation, force: bool
    ) -> list[ConsolidationOutcome]:
        settings = conversation.effective(self.settings)
        return await self.consolidator.consolidate_all(
            conversation.active(settings).reflection_keys(),
            conversation.reflection_role,
            force=force,
            settings=settings.consolidation,
            instructions=conversation.memory_instructions,
        )

    async def process_cold(
        self, now: datetime | None = None, limit: int = 100
    ) -> list[FormationReport]:
        """Form every cold session once; safe to run from several schedulers at the same time."""
        at = now or self.clock.now()
        s = self.settings.formation
        found = await self.sessions.cold_sessions(cold_cutoff(at, s), s.min_messages, limit)
        # The store narrows by index; the domain's rule decides which sessions are cold (the
        # sweep is one query over every agent: its cold age and minimum are the globals; the
        # claim then asks for the agent's own ``min_messages``).
        cold = [st for st in found if is_cold(st.last_activity_at, st.pending_messages, at, s)]
        reports: list[FormationReport] = []
        for state in cold:
            try:
                report = await self.form(state.agent_id, state.session_id, Trigger.COLD)
            except Exception as error:  # one bad session must not stop the sweep
                log.warning("cold formation of %s failed: %s", state.session_id, summary(error))
                continue
            if report is not None:
                reports.append(report)
        return reports
