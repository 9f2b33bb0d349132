"""Carrying out a dedup plan: adds first, then updates, then retirements.

The replacement of a retired fact is stored before the old one is retired, so no failure
leaves the store with neither. A lost compare-and-set (someone edited the fact meanwhile)
keeps the new fact as an ADD instead, and says so in the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.application.calls import embed
from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.reports import FormationReport
from eden_memory.domain.dedup import (
    AddFact,
    DedupAction,
    DedupPlan,
    Override,
    RetireFact,
    UpdateFact,
)
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import FactId, MessageId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore


@dataclass
class PlanExecutor:
    store: FactStore
    embedder: Embedder
    clock: Clock
    scopes: ActiveScopes
    report: FormationReport

    async def execute(
        self,
        plan: DedupPlan,
        kept: Sequence[SourcedFact],
        ids: Sequence[FactId],
        vectors: Sequence[list[float]],
    ) -> list[Fact]:
        ops = plan.operations
        adds = [op for op in ops if isinstance(op, AddFact)]
        updates = [op for op in ops if isinstance(op, UpdateFact)]
        retires = [op for op in ops if isinstance(op, RetireFact)]
        originals = {i: s.fact.content for i, s in enumerate(kept)}
        rewritten = [op.content for op in adds if op.content != originals[op.fact_index]]
        rewritten += [op.content for op in updates]
        fresh = dict(
            zip(rewritten, await embed(self.embedder, rewritten, self.report.usage), strict=True)
        )

        def vector_of(op: AddFact) -> list[float]:
            same = op.content == originals[op.fact_index]
            return vectors[op.fact_index] if same else fresh[op.content]

        new = [
            self._fact(ids[op.fact_index], op.content, op.scope, kept[op.fact_index]) for op in adds
        ]
        stored = await self.store.add_facts(new, [vector_of(op) for op in adds])
        self.report.facts_added.extend(
            s.id for s, n in zip(stored, new, strict=True) if s.id == n.id
        )
        successor = {op.fact_index: s.id for op, s in zip(adds, stored, strict=True)}
        targets = [o.target_id for o in updates] + [o.target_id for o in retires]
        current = {f.id: f for f in await self.store.get_facts(targets)}
        formed = list(stored)
        for up in updates:
            formed.append(
                await self._update(
                    up, current.get(up.target_id), fresh[up.content], kept, ids, vectors
                )
            )
        for op in retires:
            await self._retire(op, current.get(op.target_id), successor.get(op.fact_index))
        return formed

    async def _update(
        self,
        op: UpdateFact,
        target: Fact | None,
        vector: list[float],
        kept: Sequence[SourcedFact],
        ids: Sequence[FactId],
        vectors: Sequence[list[float]],
    ) -> Fact:
        try:
            if target is None:
                raise ConflictError(f"fact {op.target_id} is gone")
            revised = target.revised(
                op.content, self.clock.now(), op.reason, space=self.embedder.space
            )
            updated = await self.store.update_fact(revised, vector, target.version)
        except ConflictError as error:
            # Someone changed or removed it meanwhile: keep the new fact as it was said.
            source = kept[op.fact_index]
            fact = self._fact(ids[op.fact_index], source.fact.content, source.fact.scope, source)
            # The vector of the sentence as said was computed with the other new facts.
            [stored] = await self.store.add_facts([fact], [vectors[op.fact_index]])
            self.report.overrides.append(Override(op.fact_index, None, DedupAction.ADD, str(error)))
            self.report.facts_added.append(stored.id)
            return stored
        self.report.facts_updated.append(updated.id)
        return updated

    async def _retire(self, op: RetireFact, target: Fact | None, successor: FactId | None) -> None:
        if target is None or not target.is_active:
            return
        retired = target.retired(self.clock.now(), op.reason or "contradicted", successor)
        try:
            await self.store.update_fact(retired, None, target.version)
        except ConflictError as error:
            self.report.overrides.append(
                Override(op.fact_index, None, DedupAction.NONE, str(error))
            )
            return
        self.report.facts_retired.append(target.id)

    def _fact(self, fact_id: FactId, content: str, scope: Scope, source: SourcedFact) -> Fact:
        now = self.clock.now()
        space = self.embedder.space
        return Fact(
            id=fact_id,
            content=content,
            scope=scope,
            agent_id=self.scopes.agent_id,
            user_id=self.scopes.user_id if scope is Scope.USER else None,
            source_session_id=self.scopes.session_id,
            source_message_ids=tuple(MessageId(m.id) for m in source.messages),
            formed_at=source.said_at,
            created_at=now,
            updated_at=now,
            embedding_model=space.model,
            embedding_dim=space.dimension,
        )
