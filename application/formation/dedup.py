"""Step 3: deduplicate new facts against the store, then carry out the validated plan.

Budget: one embedding call for all new facts, their candidate searches concurrently, at
most one decision call (none when no fact has a candidate), and one more embedding call
only when the plan rewrote some texts (merged updates).

Re-forming the same messages after a failure converges: a fact gets an id derived from its
scope key, its text and its source messages, so a fact written by an interrupted attempt is
recognised (not dropped as an exact duplicate) and its pending update or retirement is
planned again.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.application.calls import ModelRouter, embed
from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.formation.writes import PlanExecutor
from eden_memory.application.hits import visible_facts
from eden_memory.application.prompts.dedup import dedup_prompt
from eden_memory.application.reports import FormationReport
from eden_memory.application.schemas import FactDecisions
from eden_memory.domain.dedup import (
    AddFact,
    Candidate,
    DedupAction,
    DedupDecision,
    DedupPlan,
    UpdateFact,
    drop_exact_duplicates,
    needs_decision,
    plan_fact_operations,
    select_candidates,
)
from eden_memory.domain.ids import FactId
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore


def derived_fact_id(source: SourcedFact, scopes: ActiveScopes) -> FactId:
    """The same fact from the same messages in the same scope always gets the same id."""
    owner = scopes.user_id if source.fact.scope is Scope.USER else ""
    parts = [scopes.agent_id, source.fact.scope.value, owner or "", source.fact.hash]
    parts += sorted(m.id for m in source.messages)
    return FactId(hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32])


@dataclass(frozen=True)
class PlannedFacts:
    plan: DedupPlan
    kept: list[SourcedFact]
    ids: list[FactId]
    vectors: list[list[float]]

    def texts(self) -> list[str]:
        """What the facts will say once written (for the reflection prompt)."""
        ops = self.plan.operations
        return [op.content for op in ops if isinstance(op, AddFact | UpdateFact)]


@dataclass
class FactWriter:
    store: FactStore
    embedder: Embedder
    models: ModelRouter
    clock: Clock
    settings: MemorySettings

    async def plan(
        self, extracted: Sequence[SourcedFact], scopes: ActiveScopes, report: FormationReport
    ) -> PlannedFacts:
        """Every read and model call of dedup, and no write: the writes come later, together."""
        kept = await self._not_known(extracted, scopes, report)
        if not kept:
            return PlannedFacts(DedupPlan((), ()), [], [], [])
        vectors = await embed(self.embedder, [s.fact.content for s in kept], report.usage)
        candidates = await self._candidates(kept, vectors, scopes)
        decisions = await self._decide(kept, candidates, report)
        plan = plan_fact_operations(
            [s.fact for s in kept], candidates, decisions, self.settings.facts.max_words
        )
        report.overrides.extend(plan.overrides)
        for action in DedupAction:
            report.decisions[action.value] = plan.count(action)
        return PlannedFacts(plan, kept, [derived_fact_id(s, scopes) for s in kept], vectors)

    async def write(
        self, planned: PlannedFacts, scopes: ActiveScopes, report: FormationReport
    ) -> list[Fact]:
        """Store what is new, update or retire what it supersedes; return the facts formed."""
        if not planned.kept:
            return []
        executor = PlanExecutor(self.store, self.embedder, self.clock, scopes, report)
        return await executor.execute(planned.plan, planned.kept, planned.ids, planned.vectors)

    async def _not_known(
        self, extracted: Sequence[SourcedFact], scopes: ActiveScopes, report: FormationReport
    ) -> list[SourcedFact]:
        """Drop exact duplicates of stored facts, except those an interrupted attempt wrote."""
        ids = [derived_fact_id(s, scopes) for s in extracted]
        ours = {f.id for f in await self.store.get_facts(ids)}
        resumed = {
            (s.fact.scope, s.fact.hash) for s, i in zip(extracted, ids, strict=True) if i in ours
        }
        known = await self.store.known_hashes(scopes.agent_id, scopes.user_id) - resumed
        kept_facts, dropped = drop_exact_duplicates([s.fact for s in extracted], known)
        report.exact_duplicates = len(dropped)
        first = {(s.fact.scope, s.fact.hash): s for s in reversed(extracted)}
        return [first[(f.scope, f.hash)] for f in kept_facts]

    async def _candidates(
        self, kept: Sequence[SourcedFact], vectors: list[list[float]], scopes: ActiveScopes
    ) -> list[tuple[Candidate, ...]]:
        if not self.settings.dedup.enabled:
            return [() for _ in vectors]
        limit, space = self.settings.dedup.candidates_per_fact, self.embedder.space
        rankings = await asyncio.gather(
            *(
                self.store.semantic_ranking(v, scopes.visibility, limit + 1, space=space)
                for v in vectors
            )
        )
        ids = [r.id for ranking in rankings for r in ranking]
        facts = await visible_facts(self.store, ids, scopes.visibility)
        return [
            select_candidates(
                [
                    Candidate(r.id, facts[r.id].content, facts[r.id].scope, r.score)
                    for r in ranking
                    # A resumed fact finds itself; it is no candidate for its own dedup.
                    if r.id in facts and facts[r.id].content_hash != source.fact.hash
                ],
                self.settings.dedup,
            )
            for source, ranking in zip(kept, rankings, strict=True)
        ]

    async def _decide(
        self,
        kept: Sequence[SourcedFact],
        candidates: Sequence[Sequence[Candidate]],
        report: FormationReport,
    ) -> list[DedupDecision]:
        indexes = needs_decision(candidates)
        if not indexes:
            return []
        system, prompt = dedup_prompt(
            [s.fact for s in kept], candidates, indexes, self.settings.facts.max_words
        )
        answer = await self.models.ask(
            ModelRole.FAST, "dedup", system, prompt, FactDecisions, report.usage
        )
        return [
            DedupDecision(d.fact, DedupAction(d.action), d.target_id, d.text, d.reason)
            for d in answer.decisions
        ]
