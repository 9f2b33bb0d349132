"""Step 3: deduplicate new facts against the store and carry out the validated plan.

Budget: one embedding call for all new facts, their candidate searches concurrently, at
most one decision call (none when no fact has a candidate), and one more embedding call
only when the plan rewrote some texts (merged updates).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.application.calls import ModelRouter, embed
from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.prompts.dedup import dedup_prompt
from eden_memory.application.reports import FormationReport
from eden_memory.application.schemas import FactDecisions
from eden_memory.domain.dedup import (
    AddFact,
    Candidate,
    DedupAction,
    DedupDecision,
    DedupPlan,
    Override,
    RetireFact,
    UpdateFact,
    drop_exact_duplicates,
    needs_decision,
    plan_fact_operations,
    select_candidates,
)
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import FactId, MessageId
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore


@dataclass
class FactWriter:
    store: FactStore
    embedder: Embedder
    models: ModelRouter
    clock: Clock
    settings: MemorySettings

    async def write(
        self, extracted: Sequence[SourcedFact], scopes: ActiveScopes, report: FormationReport
    ) -> list[Fact]:
        """Store what is new, update or retire what it supersedes; return the facts formed."""
        known = await self.store.known_hashes(scopes.agent_id, scopes.user_id)
        kept_facts, dropped = drop_exact_duplicates([s.fact for s in extracted], known)
        report.exact_duplicates = len(dropped)
        sources = {(s.fact.scope, s.fact.hash): s for s in reversed(extracted)}
        kept = [sources[(f.scope, f.hash)] for f in kept_facts]
        if not kept:
            return []
        vectors = await embed(self.embedder, [s.fact.content for s in kept], report.usage)
        candidates = await self._candidates(vectors, scopes)
        decisions = await self._decide(kept, candidates, report)
        plan = plan_fact_operations(
            [s.fact for s in kept], candidates, decisions, self.settings.facts.max_words
        )
        report.overrides.extend(plan.overrides)
        for action in DedupAction:
            report.decisions[action.value] = plan.count(action)
        return await self._execute(plan, kept, vectors, scopes, report)

    async def _candidates(
        self, vectors: list[list[float]], scopes: ActiveScopes
    ) -> list[tuple[Candidate, ...]]:
        if not self.settings.dedup.enabled:
            return [() for _ in vectors]
        limit = self.settings.dedup.candidates_per_fact
        found = await asyncio.gather(
            *(self.store.semantic_search(v, scopes.visibility, limit) for v in vectors)
        )
        return [
            select_candidates(
                [Candidate(h.fact.id, h.fact.content, h.fact.scope, h.score) for h in hits],
                self.settings.dedup,
            )
            for hits in found
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

    async def _execute(
        self,
        plan: DedupPlan,
        kept: Sequence[SourcedFact],
        vectors: list[list[float]],
        scopes: ActiveScopes,
        report: FormationReport,
    ) -> list[Fact]:
        adds = [op for op in plan.operations if isinstance(op, AddFact)]
        updates = [op for op in plan.operations if isinstance(op, UpdateFact)]
        retires = [op for op in plan.operations if isinstance(op, RetireFact)]
        rewritten = [op.content for op in adds if op.content != kept[op.fact_index].fact.content]
        rewritten += [op.content for op in updates]
        fresh = dict(
            zip(rewritten, await embed(self.embedder, rewritten, report.usage), strict=True)
        )

        def vector_of(index: int, content: str) -> list[float]:
            return vectors[index] if content == kept[index].fact.content else fresh[content]

        new_facts = [self._new_fact(op, kept[op.fact_index], scopes) for op in adds]
        stored = await self.store.add_facts(
            new_facts, [vector_of(op.fact_index, op.content) for op in adds]
        )
        added_for = {op.fact_index: fact.id for op, fact in zip(adds, stored, strict=True)}
        report.facts_added.extend(
            f.id for f, n in zip(stored, new_facts, strict=True) if f.id == n.id
        )
        formed = list(stored)
        current = {
            f.id: f for f in await self.store.get_facts([op.target_id for op in updates + retires])
        }
        for up in updates:
            fact = await self._update(up, current, fresh[up.content], kept, scopes, report)
            if fact is not None:
                formed.append(fact)
        for op in retires:
            await self._retire(op, current, added_for.get(op.fact_index), report)
        return formed

    async def _update(
        self,
        op: UpdateFact,
        current: dict[FactId, Fact],
        vector: list[float],
        kept: Sequence[SourcedFact],
        scopes: ActiveScopes,
        report: FormationReport,
    ) -> Fact | None:
        target = current.get(op.target_id)
        now = self.clock.now()
        try:
            if target is None:
                raise ConflictError(f"fact {op.target_id} is gone")
            revised = target.revised(op.content, now, op.reason)
            updated = await self.store.update_fact(revised, vector, target.version)
        except ConflictError as error:
            # Someone else changed or removed it meanwhile: keep the new fact instead.
            add = AddFact(
                op.fact_index, kept[op.fact_index].fact.content, kept[op.fact_index].fact.scope
            )
            fact = self._new_fact(add, kept[op.fact_index], scopes)
            [stored] = await self.store.add_facts([fact], [await self._vector(add.content, report)])
            report.overrides.append(Override(op.fact_index, None, DedupAction.ADD, str(error)))
            report.facts_added.append(stored.id)
            return stored
        report.facts_updated.append(updated.id)
        return updated

    async def _retire(
        self,
        op: RetireFact,
        current: dict[FactId, Fact],
        successor: FactId | None,
        report: FormationReport,
    ) -> None:
        target = current.get(op.target_id)
        if target is None or not target.is_active:
            return
        retired = target.retired(self.clock.now(), op.reason or "contradicted", successor)
        try:
            await self.store.update_fact(retired, None, target.version)
        except ConflictError as error:
            report.overrides.append(Override(op.fact_index, None, DedupAction.ADD, str(error)))
            return
        report.facts_retired.append(target.id)

    async def _vector(self, text: str, report: FormationReport) -> list[float]:
        [vector] = await embed(self.embedder, [text], report.usage)
        return vector

    def _new_fact(self, op: AddFact, source: SourcedFact, scopes: ActiveScopes) -> Fact:
        now = self.clock.now()
        space = self.embedder.space
        return Fact(
            id=FactId(uuid.uuid4().hex),
            content=op.content,
            scope=op.scope,
            agent_id=scopes.agent_id,
            user_id=scopes.user_id if op.scope is Scope.USER else None,
            source_session_id=scopes.session_id,
            source_message_ids=tuple(MessageId(m.id) for m in source.messages),
            formed_at=source.said_at,
            created_at=now,
            updated_at=now,
            embedding_model=space.model,
            embedding_dim=space.dimension,
        )
