"""Writing one agent's plan to the target store, idempotently.

Every write is preceded by its manifest entry (``RunJournal.record``), so after a crash
the manifest lists at least everything that reached the store and a rollback can remove
it. Before writing, the target is read: a record whose deterministic id is already there
is not written again, which is what makes a re-run change nothing and a crashed run
resumable by simply running it again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from eden_memory.application.migration.model import (
    AgentPlan,
    Issue,
    Kind,
    MigrationReport,
    PlannedBlob,
    PlannedFact,
)
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.migration import AGENTS, SESSIONS, USERS, RunJournal
from eden_memory.ports.stores import Stores

T = TypeVar("T")
REFLECTION_BATCH = 500


def content_digest(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def key_dict(key: ScopeKey) -> dict[str, Any]:
    return {
        "scope": key.scope.value,
        "agent_id": key.agent_id,
        "user_id": key.user_id,
        "session_id": key.session_id,
    }


def key_from(data: dict[str, Any]) -> ScopeKey:
    return ScopeKey(Scope(data["scope"]), data["agent_id"], data["user_id"], data["session_id"])


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), max(1, size)):
        yield items[start : start + max(1, size)]


@dataclass
class Writer:
    stores: Stores
    embedder: Embedder
    journal: RunJournal | None
    run_id: str | None
    report: MigrationReport
    fact_batch_size: int
    # Ids (and blob keys) this run's manifest already lists: found in the target on a
    # resumed run, they were written by this run, not before it.
    owned: set[str] = field(default_factory=set)

    @property
    def dry_run(self) -> bool:
        return self.report.dry_run

    async def _record(self, entries: list[dict[str, Any]]) -> None:
        if self.journal is not None and self.run_id is not None:
            await self.journal.record(self.run_id, entries)

    def _count(self, agent_id: str, kind: Kind, ident: str, n: int = 1) -> None:
        tally = self.report.tally(agent_id, kind)
        if ident in self.owned:
            tally.written += n
        else:
            tally.present += n

    async def apply(self, plan: AgentPlan) -> None:
        for kind, n in plan.source_counts.items():
            self.report.tally(plan.agent_id, kind).source += n
        for kind, n in plan.skipped_counts.items():
            self.report.tally(plan.agent_id, kind).skipped += n
        self.report.issues.extend(plan.issues)
        await self._facts(plan)
        await self._reflections(plan)
        await self._blobs(plan)
        instructions = plan.source_counts.get(Kind.INSTRUCTIONS, 0) - plan.skipped_counts.get(
            Kind.INSTRUCTIONS, 0
        )
        if plan.instructions:
            self.report.agent_profiles[plan.agent_id] = plan.instructions
            self.report.tally(plan.agent_id, Kind.INSTRUCTIONS).written += instructions

    async def _facts(self, plan: AgentPlan) -> None:
        if not plan.facts:
            return
        agent = plan.agent_id
        existing = {
            f.id for f in await self.stores.facts.get_facts([p.fact.id for p in plan.facts])
        }
        hashes = {p.fact.content_hash for p in plan.facts}
        known = await self.stores.facts.known_hashes(plan.fact_agent, None, hashes)
        pending: list[PlannedFact] = []
        for planned in plan.facts:
            fact = planned.fact
            if fact.id in existing:
                self._count(agent, Kind.AGENT_FACT, fact.id)
                self._provenance(planned)
            elif (Scope.AGENT, fact.content_hash) in known:
                self._duplicate(
                    planned, "exact duplicate of an agent fact stored before or earlier in this run"
                )
            else:
                known.add((Scope.AGENT, fact.content_hash))
                pending.append(planned)
        for batch in chunks(pending, self.fact_batch_size):
            if not self.dry_run:
                await self._record([{"type": "fact", "id": p.fact.id} for p in batch])
                vectors = (
                    await self.embedder.embed([p.fact.content for p in batch], TextRole.PASSAGE)
                ).vectors
                stored = await self.stores.facts.add_facts([p.fact for p in batch], vectors)
            else:
                stored = [p.fact for p in batch]
            for planned, kept in zip(batch, stored, strict=True):
                if kept.id != planned.fact.id:
                    self._duplicate(planned, f"exact duplicate of stored fact {kept.id}")
                    continue
                self.report.tally(agent, Kind.AGENT_FACT).written += 1
                self._provenance(planned)
                self.report.writes.append(f"fact {kept.id} [{agent}] {kept.content[:80]}")

    def _duplicate(self, planned: PlannedFact, reason: str) -> None:
        agent = planned.fact.agent_id
        self.report.tally(agent, Kind.AGENT_FACT).skipped += 1
        self.report.issues.append(Issue(agent, Kind.AGENT_FACT, SESSIONS, planned.v1_id, reason))

    def _provenance(self, planned: PlannedFact) -> None:
        fact = planned.fact
        self.report.fact_provenance[fact.id] = {
            "v1_id": planned.v1_id,
            "shard": planned.shard,
            "related_users": list(planned.related_users),
            "source_session_id": fact.source_session_id,
            "source_message_ids": list(fact.source_message_ids),
        }

    async def _reflections(self, plan: AgentPlan) -> None:
        if not plan.reflections:
            return
        agent = plan.agent_id
        stored = await self.stores.buffers.list_reflections(
            plan.fact_agent, None, include_absorbed=True
        )
        existing = {r.id for r in stored}
        pending = []
        for planned in plan.reflections:
            if planned.reflection.id in existing:
                self._count(agent, planned.kind, planned.reflection.id)
            else:
                pending.append(planned)
        for batch in chunks(pending, REFLECTION_BATCH):
            if not self.dry_run:
                await self._record([{"type": "reflection", "id": p.reflection.id} for p in batch])
                await self.stores.buffers.add_reflections([p.reflection for p in batch])
            for planned in batch:
                r = planned.reflection
                self.report.tally(agent, planned.kind).written += 1
                self.report.writes.append(f"reflection {r.id} [{r.key.as_text()}] {r.content[:80]}")

    async def _blobs(self, plan: AgentPlan) -> None:
        if not plan.blobs:
            return
        current = await self.stores.buffers.get_consolidated([b.key for b in plan.blobs])
        for planned in plan.blobs:
            await self._blob(planned, current.get(planned.key))

    async def _blob(self, planned: PlannedBlob, current: ConsolidatedMemory | None) -> None:
        agent = planned.memory.agent_id
        n = len(planned.sources)
        tally = self.report.tally(agent, planned.kind)
        where = USERS if planned.kind is Kind.USER_BLOB else AGENTS
        if current is not None and current.content == planned.memory.content:
            self._count(agent, planned.kind, planned.key.as_text(), n)
            return
        if current is not None and current.content:
            tally.skipped += n
            reason = (
                f"{planned.key.as_text()} already has a different consolidated memory in the "
                "target; not overwritten"
            )
            for v1_id in planned.sources:
                self.report.issues.append(Issue(agent, planned.kind, where, v1_id, reason))
            return
        before = current.version if current is not None else 0
        memory = planned.memory.evolve(version=before + 1)
        if not self.dry_run:
            await self._record(
                [
                    {
                        "type": "blob",
                        "key": key_dict(memory.key),
                        "previous": None if current is None else current.model_dump(mode="json"),
                        "written_version": memory.version,
                        "content_sha256": content_digest(memory.content),
                    }
                ]
            )
            if not await self.stores.buffers.replace_consolidated(memory, expected_version=before):
                tally.skipped += n
                reason = "the target blob changed during the migration; not overwritten"
                for v1_id in planned.sources:
                    self.report.issues.append(Issue(agent, planned.kind, where, v1_id, reason))
                return
        tally.written += n
        words = len(memory.content.split())
        self.report.writes.append(f"blob [{memory.key.as_text()}] {words} words")
