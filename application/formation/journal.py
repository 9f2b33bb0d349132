"""The plan of a formation's fact writes, saved on its session before the first write.

A formation decides everything (extraction, embeddings, dedup decisions) before it writes,
then writes facts one call at a time. If it fails part way, planning again would start from
a store it has already changed: the facts it added would be offered as candidates for one
another, and a merge it had done would hide the fact it merged. So the plan is saved first
(``SessionStore.save_plan``), and a retry of the session carries out the saved plan instead
of deciding again; every step of it is idempotent (ids derived from the messages, merges
marked with the fact they merged, compare-and-set on the versions seen when planning).
``complete_claim`` clears the plan together with marking the messages formed.

The plan holds texts, not vectors: it stays a few kilobytes, and a retry embeds its texts
again in one call, in the store's space of the moment (a re-embedding may have moved it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

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
from eden_memory.domain.ids import FactId, MessageId, UserId
from eden_memory.domain.scopes import ActiveScopes, Scope


class _Frozen(BaseModel):
    # Fields a later release may add are ignored rather than making the plan unreadable.
    model_config = ConfigDict(frozen=True, extra="ignore")


class _PlannedFact(_Frozen):
    id: FactId
    content: str
    scope: Scope
    user_id: UserId | None  # the owner of a user fact when it was planned
    message_ids: tuple[MessageId, ...]
    said_at: datetime
    user_ids: tuple[UserId, ...] = ()  # whose words (provenance); absent from older plans


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
    facts: tuple[_PlannedFact, ...] = ()
    operations: tuple[_Operation, ...] = ()
    versions: dict[FactId, int] = {}

    @model_validator(mode="after")
    def _complete(self) -> FormationJournal:
        for op in self.operations:
            if not 0 <= op.fact_index < len(self.facts):
                raise ValueError(f"an operation on fact {op.fact_index} of {len(self.facts)}")
            if op.kind != "add" and op.target_id not in self.versions:
                raise ValueError(f"no planned version of {op.target_id}")
            _load(op)  # every operation must be usable
        return self

    @classmethod
    def of(
        cls, planned: PlannedFacts, message_ids: tuple[MessageId, ...], scopes: ActiveScopes
    ) -> FormationJournal:
        facts = [
            _PlannedFact(
                id=fact_id,
                content=source.fact.content,
                scope=source.fact.scope,
                user_id=scopes.user_id if source.fact.scope is Scope.USER else None,
                message_ids=source.message_ids,
                said_at=source.said_at,
                user_ids=source.user_ids,
            )
            for source, fact_id in zip(planned.kept, planned.ids, strict=True)
        ]
        operations = [_dump(op) for op in planned.plan.operations]
        return cls(
            message_ids=message_ids,
            facts=tuple(facts),
            operations=tuple(op for op in operations if op is not None),
            versions=planned.versions,
        )

    def planned(self, scopes: ActiveScopes) -> PlannedFacts:
        """The plan to carry out again, without its vectors (``FactWriter.with_vectors``).

        Operations on facts the conversation no longer admits are left out: a user fact when
        the session gained a second user, or its user or agent memory was switched off.
        """
        kept = [
            SourcedFact(NewFact(f.content, f.scope), f.message_ids, f.said_at, f.user_ids)
            for f in self.facts
        ]
        admitted = [_admits(scopes, f) for f in self.facts]
        operations = tuple(_load(op) for op in self.operations if admitted[op.fact_index])
        return PlannedFacts(
            DedupPlan(operations, ()), kept, [f.id for f in self.facts], [], dict(self.versions)
        )


def _admits(scopes: ActiveScopes, fact: _PlannedFact) -> bool:
    if fact.scope not in scopes.fact_scopes:
        return False
    return fact.scope is not Scope.USER or fact.user_id == scopes.user_id


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
