"""A saved formation plan reads back as the plan that was saved."""

from __future__ import annotations

from datetime import UTC, datetime

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
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId, MessageId
from eden_memory.domain.scopes import Scope

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SPACE = EmbeddingSpace("keyword-hash", 2)


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
    text = FormationJournal.of(planned, (MessageId("m1"), MessageId("m2")), SPACE).model_dump_json()
    journal = FormationJournal.model_validate_json(text)
    assert (journal.message_ids, journal.space) == (("m1", "m2"), SPACE)
    back = journal.planned()
    assert back.plan.operations == operations[:3]
    assert (back.kept, back.ids, back.vectors) == (planned.kept, planned.ids, planned.vectors)
    assert (back.versions, back.rewritten) == (planned.versions, planned.rewritten)
    assert back.texts() == planned.texts()
