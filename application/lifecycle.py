"""A session's life: start, turns recorded, formation when due, end, and cold sessions."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.application.background import BackgroundTasks
from eden_memory.application.consolidation import Consolidator
from eden_memory.application.conversation import Conversation
from eden_memory.application.formation.pipeline import Formation, Trigger
from eden_memory.application.reports import ConsolidationOutcome, FormationReport, Usage
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.model_choice import reflection_role
from eden_memory.domain.models import Message, SessionState
from eden_memory.domain.triggers import cold_cutoff, formation_due, weighted_tokens
from eden_memory.ports.stores import PendingMessage

log = logging.getLogger(__name__)


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
    tasks: BackgroundTasks
    on_report: Callable[[FormationReport], None] = lambda report: None

    async def start(self, conversation: Conversation) -> SessionState | None:
        """Register the session (and its memory settings) before its first turn."""
        return (await self.record(conversation, [], background=False)).state

    async def record(
        self, conversation: Conversation, messages: Sequence[Message], background: bool = True
    ) -> Recorded:
        """Store a turn's messages; start a formation off the caller's path when one is due."""
        s = self.formation.settings
        if not s.enabled:
            return Recorded(None, False)
        pending = [PendingMessage(m, weighted_tokens([m], s.formation)) for m in messages]
        store = self.formation.store
        now = self.formation.clock.now()
        state = await store.record_messages(conversation.profile(s), pending, now)
        if not formation_due(state.pending_messages, state.pending_tokens, s.formation):
            return Recorded(state, False, len(pending))
        work = self.form(state.agent_id, state.session_id, Trigger.DUE)
        if background:
            self.tasks.spawn(work, name=f"form:{state.agent_id}:{state.session_id}")
        else:
            await work
        return Recorded(state, True, len(pending))

    async def form(
        self, agent_id: str, session_id: str, trigger: Trigger
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
        ids = conversation.session
        f = self.formation
        await f.store.end_session(AgentId(ids.agent_id), SessionId(ids.session_id), f.clock.now())
        report = await self.form(ids.agent_id, ids.session_id, Trigger.END)
        if report is not None:
            return report
        usage = Usage()
        outcomes = await self._consolidate(conversation, True, usage)
        if not outcomes:
            return None
        report = FormationReport(
            ids.agent_id, ids.session_id, Trigger.END.value, consolidations=outcomes, usage=usage
        )
        self.on_report(report)
        return report

    async def consolidate(
        self, conversation: Conversation, force: bool = False
    ) -> list[ConsolidationOutcome]:
        """Consolidate the conversation's due buffers (every non-empty one with ``force``);
        a failed scope is an outcome with status ``failed`` and its buffer kept."""
        return await self._consolidate(conversation, force, Usage())

    async def _consolidate(
        self, conversation: Conversation, force: bool, usage: Usage
    ) -> list[ConsolidationOutcome]:
        f = self.formation
        scopes = conversation.scopes(f.settings)
        role = reflection_role(conversation.tier, conversation.preview, f.settings.models)
        consolidator = Consolidator(f.store, f.models, f.clock, f.settings.consolidation)
        return await consolidator.consolidate_all(scopes.keys(), role, usage, force=force)

    async def process_cold(
        self, now: datetime | None = None, limit: int = 100
    ) -> list[FormationReport]:
        """Form every cold session once; safe to run from several schedulers at the same time."""
        f = self.formation
        at = now or f.clock.now()
        s = f.settings.formation
        cold = await f.store.cold_sessions(cold_cutoff(at, s), s.min_messages, limit)
        reports: list[FormationReport] = []
        for state in cold:
            try:
                report = await self.form(state.agent_id, state.session_id, Trigger.COLD)
            except Exception as error:  # one bad session must not stop the sweep
                log.warning("cold formation of %s failed: %r", state.session_id, error)
                continue
            if report is not None:
                reports.append(report)
        return reports
