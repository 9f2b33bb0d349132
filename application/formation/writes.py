"""Carrying out a dedup plan: adds first, then updates, then retirements.

The replacement of a retired fact is stored before the old one is retired, so no failure
leaves the store with neither. Every step can be carried out twice: adds by derived id, a
merge recognised by the new fact it records (``Fact.merged``), a retirement by the status.
A merge target that changed after the plan was made (someone edited it) keeps the new fact
as an ADD instead, and the outcome says so. The executor returns what it did
(``WriteOutcome``); the formation puts it in its report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.formation.planned import PlannedFacts
from eden_memory.application.formation.reports import FormationReport
from eden_memory.domain.dedup import (
    AddFact,
    DedupAction,
    Override,
    RetireFact,
    UpdateFact,
)
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.models.provenance import Origin
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore


@dataclass
class WriteOutcome:
    """What carrying out a plan did: the facts formed, and the ids added, updated, retired."""

    formed: list[Fact] = field(default_factory=list)
    added: list[FactId] = field(default_factory=list)
    updated: list[FactId] = field(default_factory=list)
    retired: list[FactId] = field(default_factory=list)
    overrides: list[Override] = field(default_factory=list)  # steps the store refused

    def into(self, report: FormationReport) -> None:
        report.facts_added.extend(self.added)
        report.facts_updated.extend(self.updated)
        report.facts_retired.extend(self.retired)
        report.overrides.extend(self.overrides)


@dataclass
class PlanExecutor:
    store: FactStore
    embedder: Embedder
    clock: Clock
    scopes: ActiveScopes
    outcome: WriteOutcome = field(default_factory=WriteOutcome)

    async def execute(self, planned: PlannedFacts) -> WriteOutcome:
        """Carry out ``planned``; carrying it out again (a retry) changes nothing more."""
        ops, kept, ids = planned.plan.operations, planned.kept, planned.ids
        adds = [op for op in ops if isinstance(op, AddFact)]
        updates = [op for op in ops if isinstance(op, UpdateFact)]
        retires = [op for op in ops if isinstance(op, RetireFact)]
        new = [
            self._fact(ids[op.fact_index], op.content, op.scope, kept[op.fact_index]) for op in adds
        ]
        vectors = [planned.vector_of(op.fact_index, op.content) for op in adds]
        stored = await self.store.add_facts(new, vectors)
        self.outcome.added.extend(s.id for s, n in zip(stored, new, strict=True) if s.id == n.id)
        successor = {op.fact_index: s.id for op, s in zip(adds, stored, strict=True)}
        targets = [o.target_id for o in updates] + [o.target_id for o in retires]
        current = {f.id: f for f in await self.store.get_facts(targets)}
        self.outcome.formed.extend(stored)
        for up in updates:
            self.outcome.formed.append(await self._update(up, current.get(up.target_id), planned))
        for op in retires:
            by = self._origin(kept[op.fact_index])
            await self._retire(op, current.get(op.target_id), successor.get(op.fact_index), by)
        return self.outcome

    async def _update(self, op: UpdateFact, target: Fact | None, planned: PlannedFacts) -> Fact:
        new_id = planned.ids[op.fact_index]
        planned_version = planned.versions[op.target_id]
        try:
            if target is not None and target.merged(planned_version, new_id):
                merged = target  # an earlier attempt of this plan did it
            else:
                merged = await self._merge(op, target, planned, new_id, planned_version)
        except ConflictError as error:
            # Someone changed or removed it meanwhile: keep the new fact as it was said.
            source = planned.kept[op.fact_index]
            fact = self._fact(new_id, source.fact.content, source.fact.scope, source)
            [stored] = await self.store.add_facts([fact], [planned.vectors[op.fact_index]])
            self.outcome.overrides.append(
                Override(op.fact_index, None, DedupAction.ADD, str(error))
            )
            if stored.id == fact.id:  # not an active twin already stored
                self.outcome.added.append(stored.id)
            return stored
        self.outcome.updated.append(merged.id)
        return merged

    async def _merge(
        self,
        op: UpdateFact,
        target: Fact | None,
        planned: PlannedFacts,
        new_id: FactId,
        planned_version: int,
    ) -> Fact:
        if target is None:
            raise ConflictError(f"fact {op.target_id} is gone")
        if target.version != planned_version:
            raise ConflictError(f"fact {op.target_id} changed after the merge was decided")
        source = planned.kept[op.fact_index]
        revised = target.revised(
            op.content,
            self.clock.now(),
            op.reason,
            new_id,
            space=self.embedder.space,
            by=self._origin(source),
        )
        vector = planned.vector_of(op.fact_index, op.content)
        try:
            return await self.store.update_fact(revised, vector, planned_version)
        except ConflictError:
            # Lost a race: to another worker carrying out this same plan, or to an edit.
            for again in await self.store.get_facts([op.target_id]):
                if again.merged(planned_version, new_id):
                    return again
            raise

    async def _retire(
        self, op: RetireFact, target: Fact | None, successor: FactId | None, by: Origin
    ) -> None:
        if target is None or not target.is_active:
            return
        retired = target.retired(self.clock.now(), op.reason or "contradicted", successor, by)
        try:
            await self.store.update_fact(retired, None, target.version)
        except ConflictError as error:
            self.outcome.overrides.append(
                Override(op.fact_index, None, DedupAction.NONE, str(error))
            )
            return
        self.outcome.retired.append(target.id)

    def _origin(self, source: SourcedFact) -> Origin:
        """Who caused a change this formation makes: its session, and whose words it is."""
        return Origin(
            session_id=self.scopes.session_id,
            user_ids=source.user_ids,
            message_ids=source.message_ids,
        )

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
            source_message_ids=source.message_ids,
            source_user_ids=source.user_ids,
            formed_at=source.said_at,
            created_at=now,
            updated_at=now,
            embedding_model=space.model,
            embedding_dim=space.dimension,
        )
