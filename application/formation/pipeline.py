"""The formation of one session's messages, in the design's seven steps.

1 claim → 2 fact extraction → 3 dedup → 4 reflection extraction → 5 buffer
→ 6 consolidation (scopes in parallel). (The design's step 7, cache invalidation, is the
store's revision counters: every write moves them and the context cache reads them.)

Steps 1–5 are one unit: if any fails, the claim is released and the same messages are
formed again later. Every model call and read comes first; the plan of the fact writes is
then saved on the session (``journal``), so a retry carries out that plan rather than
deciding again over a store the failed attempt had already changed. Step 6 failing, with
any error, leaves the buffer as it was, to be consolidated by a later formation: the
formation still succeeds and its report lists the failed consolidation.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from eden_memory.application.calls import ModelRouter, stage
from eden_memory.application.formation import resume
from eden_memory.application.formation.claim_ids import ClaimIds
from eden_memory.application.formation.consolidation import Consolidator
from eden_memory.application.formation.dedup import FactWriter
from eden_memory.application.formation.extraction import extract_facts, extract_reflections
from eden_memory.application.formation.notices import log_capped, log_moved, log_rejected
from eden_memory.application.formation.planned import PlannedFacts
from eden_memory.application.formation.reports import FormationReport, Usage
from eden_memory.application.metering import UsageMeter
from eden_memory.application.search.calibration import Calibrations
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.formation_caps import FormationCaps
from eden_memory.domain.ids import AgentId, ReflectionId, SessionId
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import Claim, Message, Reflection
from eden_memory.domain.models.provenance import speakers
from eden_memory.domain.participants import formable_scopes
from eden_memory.domain.personal_details import people_of
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.triggers import formation_due
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import Stores
from eden_memory.ports.telemetry import Attribute, Span, Telemetry


class Trigger(StrEnum):
    DUE = "due"  # the message or token interval was reached
    COLD = "cold"  # quiet for a while with enough unformed messages
    END = "end"  # the session ended: form whatever is left, consolidate every buffer


@dataclass
class Formation:
    stores: Stores
    embedder: Embedder
    models: ModelRouter
    clock: Clock
    settings: MemorySettings
    calibrations: Calibrations  # the embedder's similarity floors, shared with search
    consolidator: Consolidator  # the service's one, shared with the session lifecycle
    meter: UsageMeter  # meters the service's clients; a formation reports its own scope
    claim_ids: ClaimIds = field(default_factory=ClaimIds)  # a lost claim's id, for its retry
    telemetry: Telemetry = NO_TELEMETRY  # each formation and stage, as a step

    async def run(
        self, agent_id: AgentId, session_id: SessionId, trigger: Trigger
    ) -> FormationReport | None:
        """Form the session's pending messages if the trigger allows; None when nothing ran."""
        claim = await self._claim(agent_id, session_id, trigger)
        if claim is None:
            return None
        asked: dict[str, Attribute] = {"eden_memory.formation.trigger": trigger.value}
        asked["eden_memory.formation.messages"] = len(claim.messages)
        try:
            # The agent's own settings over the host's, resolved once for the whole formation.
            own = replace(self, settings=claim.session.profile.effective(self.settings))
            with self.telemetry.operation("eden_memory.formation", asked) as span:
                with self.meter.scope() as spent:
                    report = await own._form(claim, trigger)
                report.usage = Usage.of(spent.snapshot())
                _outcome(span, report)
            return report
        except BaseException:
            await self._release(claim)
            raise

    async def _claim(
        self, agent_id: AgentId, session_id: SessionId, trigger: Trigger
    ) -> Claim | None:
        state = await self.stores.sessions.get_session(agent_id, session_id)
        if state is None:
            return None
        s = state.profile.effective(self.settings).formation
        if trigger is Trigger.DUE and not formation_due(
            state.pending_messages, state.pending_tokens, s
        ):
            return None
        claim_id = self.claim_ids.take(state.agent_id, state.session_id)
        try:
            return await self.stores.sessions.claim_messages(
                state.agent_id,
                state.session_id,
                claim_id=claim_id,
                now=self.clock.now(),
                ttl_seconds=s.claim_ttl_seconds,
                min_messages=1 if trigger is Trigger.END else s.min_messages,
                limit=s.max_messages_per_formation,
            )
        except BaseException:  # taken or not, the reply is lost: the next try asks as us
            self.claim_ids.unanswered(state.agent_id, state.session_id, claim_id)
            raise

    async def _release(self, claim: Claim) -> None:
        # The claim expires on its own if this fails; never hide the first error.
        with contextlib.suppress(Exception):
            await self.stores.sessions.release_claim(claim)

    async def _form(self, claim: Claim, trigger: Trigger) -> FormationReport:
        started = time.perf_counter()
        state = claim.session
        report = FormationReport(state.agent_id, state.session_id, trigger.value)
        report.messages = len(claim.messages)
        profile = state.profile
        # Words another user wrote never form this user's memory, whoever the session has now.
        scopes = formable_scopes(profile.active(self.settings), claim.messages)
        role = profile.reflection_role
        writer = FactWriter(
            self.stores.facts,
            self.stores.ranking,
            self.embedder,
            self.models,
            self.clock,
            self.settings,
            self.calibrations,
        )
        saved = resume.saved_plan(claim)
        # An interrupted formation's plan is finished before anything else is decided.
        formed = [] if saved is None else await resume.resume(saved, writer, scopes, report)
        covered = [] if saved is None else list(saved.message_ids)
        fresh = [m for m in claim.messages if m.id not in covered]
        planned = await self._plan_facts(writer, claim, fresh, scopes, report)
        reflections = await self._reflections(claim, scopes, role, formed + planned.texts(), report)
        # Every read and model call is done: only writes remain, so a model or read failure
        # can never leave a formation half written, and a failed write is finished by a retry.
        await resume.save(self.stores.sessions, claim, planned, covered, scopes)
        async with stage(self.telemetry, report.stage_seconds, "fact_writes"):
            (await writer.write(planned, scopes)).into(report)
        async with stage(self.telemetry, report.stage_seconds, "buffer"):
            await self.stores.sessions.complete_claim(claim, reflections, self.clock.now())
        async with stage(self.telemetry, report.stage_seconds, "consolidation"):
            report.consolidations = await self.consolidator.consolidate_all(
                scopes.reflection_keys(),
                role,
                force=trigger is Trigger.END,
                settings=self.settings.consolidation,
                instructions=profile.memory_instructions,
            )
        report.stage_seconds["total"] = time.perf_counter() - started
        return report

    async def _plan_facts(
        self,
        writer: FactWriter,
        claim: Claim,
        messages: Sequence[Message],
        scopes: ActiveScopes,
        report: FormationReport,
    ) -> PlannedFacts:
        if not scopes.fact_scopes or not messages:
            return PlannedFacts.nothing()
        cap = FormationCaps.for_texts((m.text for m in messages), self.settings.caps).facts
        async with stage(self.telemetry, report.stage_seconds, "fact_extraction"):
            extracted = await extract_facts(
                self.models,
                messages,
                scopes,
                self.settings,
                claim.session.profile.memory_instructions,
                cap,
                claim.session.profile.user_ids,
            )
        report.facts_extracted = len(extracted.facts)
        report.facts_rejected.extend(extracted.rejected)
        report.facts_moved.extend(extracted.moved)
        report.facts_capped = extracted.capped
        log_capped(report, "facts", extracted.capped, cap)
        report.citations_trimmed = extracted.citations_trimmed
        report.dates_resolved += extracted.dates_resolved
        log_rejected(report, "fact", extracted.rejected)
        log_moved(report, "fact", extracted.moved)
        async with stage(self.telemetry, report.stage_seconds, "dedup"):
            return await writer.plan(extracted.facts, scopes, report)

    async def _reflections(
        self,
        claim: Claim,
        scopes: ActiveScopes,
        role: ModelRole,
        formed: list[str],
        report: FormationReport,
    ) -> list[Reflection]:
        keys = scopes.reflection_keys()
        if not keys:
            return []
        caps = FormationCaps.for_texts((m.text for m in claim.messages), self.settings.caps)
        async with stage(self.telemetry, report.stage_seconds, "reflection_extraction"):
            blobs = await self.stores.buffers.get_consolidated(keys)
            buffered = await self.stores.buffers.unabsorbed(keys)
            notes = await extract_reflections(
                self.models,
                role,
                claim.messages,
                scopes,
                {k.scope: b for k, b in blobs.items()},
                {k.scope: [r for r in buffered if r.key == k] for k in keys},
                formed,
                self.settings,
                claim.session.profile.memory_instructions,
                caps.notes_per_scope,
                people_of(claim.messages, claim.session.profile.user_ids),
            )
        report.reflections_rejected.extend(notes.rejected)
        report.reflections_moved.extend(notes.moved)
        report.dates_resolved += notes.dates_resolved
        log_rejected(report, "reflection", notes.rejected)
        log_moved(report, "reflection", notes.moved)
        for scope, capped in notes.capped.items():
            report.reflections_capped[scope.value] = capped
            log_capped(report, f"{scope.value} notes", capped, caps.notes_per_scope)
        now = self.clock.now()
        said_at = max(m.sent_at for m in claim.messages)
        # A note is formed from the whole batch: its users are everyone who spoke in it.
        users = speakers(claim.messages, claim.session.profile.user_ids)
        out: list[Reflection] = []
        for scope, texts in notes.by_scope.items():
            report.reflections[scope.value] = len(texts)
            for number, text in enumerate(texts):
                out.append(
                    Reflection.in_scope(
                        scopes.key(scope),
                        # Derived from the claim, so re-buffering the same claim is a no-op.
                        id=ReflectionId(f"{claim.claim_id}-{scope.value}-{number}"),
                        content=text,
                        source_session_id=claim.session.session_id,
                        source_message_ids=tuple(m.id for m in claim.messages),
                        source_user_ids=users,
                        formed_at=said_at,
                        created_at=now,
                    )
                )
        return out


def _outcome(span: Span, report: FormationReport) -> None:
    """What a formation did, as counts on its step."""
    span.set("eden_memory.formation.facts_extracted", report.facts_extracted)
    span.set("eden_memory.formation.facts_added", len(report.facts_added))
    span.set("eden_memory.formation.reflections", sum(report.reflections.values()))
    span.set("eden_memory.formation.consolidations", len(report.consolidations))
