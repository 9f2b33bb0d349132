"""Step 3: deduplicate new facts against the store, then carry out the validated plan.

Budget: one embedding call for all new facts, their candidate searches concurrently, at
most one decision call (none when no fact has a candidate), and one more embedding call
only when the plan rewrote some texts (merged updates).

Planning makes every model call and read; writing makes none. A fact gets an id derived
from its scope key, its text, its session and its source messages, so writing the same plan
twice writes each fact once (see ``journal`` for how a retry carries out a saved plan).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from eden_memory.application.calls import ModelRouter, embed
from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.formation.notices import log_overrides
from eden_memory.application.formation.planned import PlannedFacts
from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.formation.writes import PlanExecutor, WriteOutcome
from eden_memory.application.prompts.dedup import dedup_prompt
from eden_memory.application.schemas import FactDecisions
from eden_memory.application.search.calibration import Calibrations
from eden_memory.application.search.hits import visible_facts
from eden_memory.domain.dedup import (
    AddFact,
    Candidate,
    DedupAction,
    DedupDecision,
    DedupPlan,
    RetireFact,
    UpdateFact,
    drop_exact_duplicates,
    needs_decision,
    plan_fact_operations,
    select_candidates,
)
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import FactId
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactRanking, FactStore


def derived_fact_id(source: SourcedFact, scopes: ActiveScopes) -> FactId:
    """The same fact from the same messages of the same session always gets the same id.

    The session is part of it because hosts may number messages per session ("m1").
    """
    owner = scopes.user_id if source.fact.scope is Scope.USER else ""
    parts = [scopes.agent_id, source.fact.scope.value, owner or "", source.fact.hash]
    parts += [scopes.session_id, *sorted(source.message_ids)]
    return FactId(hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32])


@dataclass
class FactWriter:
    facts: FactStore
    ranking: FactRanking
    embedder: Embedder
    models: ModelRouter
    clock: Clock
    settings: MemorySettings
    calibrations: Calibrations

    async def plan(
        self, extracted: Sequence[SourcedFact], scopes: ActiveScopes, report: FormationReport
    ) -> PlannedFacts:
        """Every read and model call of dedup, and no write: the writes come later, together."""
        kept = await self._not_known(extracted, scopes, report)
        if not kept:
            return PlannedFacts.nothing()
        ids = [derived_fact_id(s, scopes) for s in kept]
        vectors = await embed(self.embedder, [s.fact.content for s in kept], TextRole.PASSAGE)
        candidates, versions = await self._candidates(vectors, scopes, set(ids))
        decisions = await self._decide(kept, candidates, report)
        plan = plan_fact_operations(
            [s.fact for s in kept], candidates, decisions, self.settings.facts.max_words
        )
        report.overrides.extend(plan.overrides)
        log_overrides(report, plan.overrides)
        for action in DedupAction:
            report.decisions[action.value] = plan.count(action)
        rewritten = _rewritten_texts(plan, kept)
        fresh = await embed(self.embedder, rewritten, TextRole.PASSAGE)
        targets = {
            op.target_id for op in plan.operations if isinstance(op, UpdateFact | RetireFact)
        }
        return PlannedFacts(
            plan,
            kept,
            ids,
            vectors,
            {i: v for i, v in versions.items() if i in targets},
            dict(zip(rewritten, fresh, strict=True)),
        )

    async def with_vectors(self, planned: PlannedFacts, report: FormationReport) -> PlannedFacts:
        """``planned`` with the vectors of every text it writes, from one embedding call."""
        said = [s.fact.content for s in planned.kept]
        rewritten = _rewritten_texts(planned.plan, planned.kept)
        vectors = await embed(self.embedder, said + rewritten, TextRole.PASSAGE)
        return replace(
            planned,
            vectors=vectors[: len(said)],
            rewritten=dict(zip(rewritten, vectors[len(said) :], strict=True)),
        )

    async def write(self, planned: PlannedFacts, scopes: ActiveScopes) -> WriteOutcome:
        """Store what is new, update or retire what it supersedes; return what was done."""
        if not planned.kept:
            return WriteOutcome()
        return await PlanExecutor(self.facts, self.embedder, self.clock, scopes).execute(planned)

    async def _not_known(
        self, extracted: Sequence[SourcedFact], scopes: ActiveScopes, report: FormationReport
    ) -> list[SourcedFact]:
        """Drop exact duplicates of stored facts, and facts these messages already formed."""
        ids = [derived_fact_id(s, scopes) for s in extracted]
        formed = {f.id for f in await self.facts.get_facts(ids)}
        fresh = [s for s, i in zip(extracted, ids, strict=True) if i not in formed]
        hashes = {s.fact.hash for s in fresh}  # only these are looked up, whatever the store holds
        known = await self.facts.known_hashes(scopes.agent_id, scopes.user_id, hashes)
        kept_facts, dropped = drop_exact_duplicates([s.fact for s in fresh], known)
        report.exact_duplicates = len(dropped) + len(extracted) - len(fresh)
        first = {(s.fact.scope, s.fact.hash): s for s in reversed(fresh)}
        return [first[(f.scope, f.hash)] for f in kept_facts]

    async def _candidates(
        self, vectors: list[list[float]], scopes: ActiveScopes, batch: set[FactId]
    ) -> tuple[list[tuple[Candidate, ...]], dict[FactId, int]]:
        """Each fact's candidates, and the version of every fact offered as one."""
        if not self.settings.dedup.enabled:
            return [() for _ in vectors], {}
        limit, space = self.settings.dedup.candidates_per_fact, self.embedder.space
        floor = self.settings.dedup.min_similarity
        if floor is None:
            floor = (await self.calibrations.current()).dedup_floor
        rankings = await asyncio.gather(
            *(
                self.ranking.semantic_ranking(v, scopes.visibility, limit, space=space)
                for v in vectors
            )
        )
        ids = [r.id for ranking in rankings for r in ranking]
        facts = await visible_facts(self.facts, ids, scopes.visibility, self.clock.now())
        candidates = [
            select_candidates(
                [
                    Candidate(r.id, facts[r.id].content, facts[r.id].scope, r.score)
                    for r in ranking
                    # Never a fact of this very batch: only what was known before it.
                    if r.id in facts and r.id not in batch
                ],
                limit,
                floor,
            )
            for ranking in rankings
        ]
        return candidates, {i: f.version for i, f in facts.items()}

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
        answer = await self.models.ask(ModelRole.FAST, "dedup", system, prompt, FactDecisions)
        return [
            DedupDecision(d.fact, DedupAction(d.action), d.target_id, d.text, d.reason)
            for d in answer.decisions
        ]


def _rewritten_texts(plan: DedupPlan, kept: Sequence[SourcedFact]) -> list[str]:
    """Texts the plan writes that differ from the facts as said: they need their own vector."""
    texts = [
        op.content
        for op in plan.operations
        if isinstance(op, AddFact | UpdateFact) and op.content != kept[op.fact_index].fact.content
    ]
    return list(dict.fromkeys(texts))
