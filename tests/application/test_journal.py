"""A saved formation plan reads back as the plan that was saved."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.application.formation.journal import FormationJournal
from eden_memory.application.formation.planned import PlannedFacts
from eden_memory.domain.dedup import (
    AddFact,
    DedupPlan,
    KeepExisting,
    NewFact,
    RetireFact,
    UpdateFact,
)
from eden_memory.domain.ids import FactId, MessageId
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import AgentMemoryConfig, Scope

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SCOPES = SessionProfile.of(AgentMemoryConfig("nova"), "s", ["alice"]).scopes(True)


def test_a_plan_survives_saving_and_loading_except_what_writes_nothing() -> None:
    kept = [
        SourcedFact(NewFact("Alice works at Acme as CTO", Scope.USER), (MessageId("m1"),), T0),
        SourcedFact(
            NewFact("The budget is 60000", Scope.AGENT), (MessageId("m2"), MessageId("m3")), T0
        ),
        SourcedFact(NewFact("Alice's email is a@b.c", Scope.USER), (MessageId("m4"),), T0),
    ]
    operations = (
        AddFact(1, "The budget is 60000", Scope.AGENT),
        UpdateFact(0, FactId("old-job"), "Alice is CTO of Acme since March", "promoted"),
        RetireFact(1, FactId("old-budget"), "contradicted"),
        KeepExisting(2, FactId("email")),
    )
    planned = PlannedFacts(
        DedupPlan(operations, ()),
        kept,
        [FactId("f0"), FactId("f1"), FactId("f2")],
        [[0.1, 0.2], [0.3, 0.4], [1 / 3, 2 / 3]],
        {FactId("old-job"): 3, FactId("old-budget"): 1},
        {"Alice is CTO of Acme since March": [0.5, 0.6]},
    )
    text = FormationJournal.of(
        planned, (MessageId("m1"), MessageId("m2")), SCOPES
    ).model_dump_json()
    journal = FormationJournal.model_validate_json(text)
    assert journal.message_ids == ("m1", "m2")
    back = journal.planned(SCOPES)
    assert back.plan.operations == operations[:3]
    assert (back.kept, back.ids, back.versions) == (planned.kept, planned.ids, planned.versions)
    assert back.vectors == []  # a plan keeps texts; a retry embeds them again
    assert back.texts() == planned.texts()


def test_a_resumed_plan_leaves_out_what_the_conversation_no_longer_admits() -> None:
    kept = [
        SourcedFact(NewFact("Alice likes tea", Scope.USER), (MessageId("m1"),), T0),
        SourcedFact(NewFact("The budget is 60000", Scope.AGENT), (MessageId("m2"),), T0),
    ]
    operations = (
        AddFact(0, "Alice likes tea", Scope.USER),
        AddFact(1, "The budget is 60000", Scope.AGENT),
        RetireFact(1, FactId("old-budget"), "contradicted"),
    )
    planned = PlannedFacts(
        DedupPlan(operations, ()), kept, [FactId("f0"), FactId("f1")], [], {FactId("old-budget"): 1}
    )
    journal = FormationJournal.of(planned, (MessageId("m1"), MessageId("m2")), SCOPES)
    group = SessionProfile.of(AgentMemoryConfig("nova"), "s", ["alice", "bob"]).scopes(True)
    assert journal.planned(group).plan.operations == operations[1:]
    bob_alone = SessionProfile.of(AgentMemoryConfig("nova"), "s", ["bob"]).scopes(True)
    assert journal.planned(bob_alone).plan.operations == operations[1:]
    agent_off = AgentMemoryConfig("nova", agent_memory_enabled=False)
    no_agent = SessionProfile.of(agent_off, "s", ["alice"]).scopes(True)
    assert journal.planned(no_agent).plan.operations == operations[:1]


def test_a_plan_naming_an_operation_it_cannot_carry_out_is_unreadable() -> None:
    good = {"message_ids": ["m1"], "facts": [], "operations": []}
    FormationJournal.model_validate(good)
    with pytest.raises(ValueError, match="operation on fact 0"):
        FormationJournal.model_validate({**good, "operations": [{"kind": "add", "fact_index": 0}]})
