"""The plan of a formation's fact writes, saved on its session before the first write.

A formation decides everything (extraction, embeddings, dedup decisions) before it writes,
then writes facts one call at a time. If it fails part way, planning again would start from
a store it has already changed: the facts it added would be offered as candidates for one
another, and a merge it had done would hide the fact it merged. So the plan is saved first
(``SessionStore.save_plan``), and a retry of the session carries out the saved plan instead
of deciding again; every step of it is idempotent (ids derived from the messages, merges
marked with the fact they merged, compare-and-set on the versions seen when planning).
``complete_claim`` clears the plan together with marking the messages formed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.formation.planned import PlannedFacts
from eden_memory.domain.dedup import (
    AddFact,
    DedupPlan,
    FactOperation,
    NewFact,
    RetireFact,
    UpdateFact,
)
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId, MessageId
from eden_memory.domain.scopes import Scope


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _PlannedFact(_Frozen):
    id: FactId
    content: str
    scope: Scope
    message_ids: tuple[MessageId, ...]
    said_at: datetime
    vector: list[float]


class _Operation(_Frozen):
    kind: Literal["add", "update", "retire"]
    fact_index: int
    content: str = ""
    scope: Scope | None = None
    target_id: FactId | None = None
    reason: str = ""


class FormationJournal(_Frozen):
    """The messages a plan covers and the plan itself, as saved on the session."""

    format: Literal[1] = 1
    message_ids: tuple[MessageId, ...]
    space: EmbeddingSpace  # of every vector below
    facts: tuple[_PlannedFact, ...] = ()
    operations: tuple[_Operation, ...] = ()
    versions: dict[FactId, int] = {}
    rewritten: dict[str, list[float]] = {}

    @classmethod
    def of(
        cls, planned: PlannedFacts, message_ids: tuple[MessageId, ...], space: EmbeddingSpace
    ) -> FormationJournal:
        facts = [
            _PlannedFact(
                id=fact_id,
                content=source.fact.content,
                scope=source.fact.scope,
                message_ids=source.message_ids,
                said_at=source.said_at,
                vector=vector,
            )
            for source, fact_id, vector in zip(
                planned.kept, planned.ids, planned.vectors, strict=True
            )
        ]
        operations = [_dump(op) for op in planned.plan.operations]
        return cls(
            message_ids=message_ids,
            space=space,
            facts=tuple(facts),
            operations=tuple(op for op in operations if op is not None),
            versions=planned.versions,
            rewritten=planned.rewritten,
        )

    def planned(self) -> PlannedFacts:
        """The plan to carry out again (its overrides were reported when it was made)."""
        kept = [
            SourcedFact(NewFact(f.content, f.scope), f.message_ids, f.said_at) for f in self.facts
        ]
        return PlannedFacts(
            DedupPlan(tuple(_load(op) for op in self.operations), ()),
            kept,
            [f.id for f in self.facts],
            [f.vector for f in self.facts],
            dict(self.versions),
            dict(self.rewritten),
        )


def _dump(op: FactOperation) -> _Operation | None:
    if isinstance(op, AddFact):
        return _Operation(kind="add", fact_index=op.fact_index, content=op.content, scope=op.scope)
    if isinstance(op, UpdateFact):
        return _Operation(
            kind="update",
            fact_index=op.fact_index,
            content=op.content,
            target_id=op.target_id,
            reason=op.reason,
        )
    if isinstance(op, RetireFact):
        return _Operation(
            kind="retire", fact_index=op.fact_index, target_id=op.target_id, reason=op.reason
        )
    return None  # keeping an existing fact writes nothing


def _load(op: _Operation) -> FactOperation:
    if op.kind == "add" and op.scope is not None:
        return AddFact(op.fact_index, op.content, op.scope)
    if op.kind == "update" and op.target_id is not None:
        return UpdateFact(op.fact_index, op.target_id, op.content, op.reason)
    if op.kind == "retire" and op.target_id is not None:
        return RetireFact(op.fact_index, op.target_id, op.reason)
    raise ValueError(f"an unusable {op.kind} operation in a saved formation plan")
