from __future__ import annotations

from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.dedup import (
    NOT_ASKED,
    SKIPPED,
    AddFact,
    Candidate,
    DedupAction,
    DedupDecision,
    DedupPlan,
    FactOperation,
    KeepExisting,
    NewFact,
    RetireFact,
    UpdateFact,
    drop_exact_duplicates,
    may_cover,
    needs_decision,
    plan_fact_operations,
    select_candidates,
)
from eden_memory.domain.ids import FactId
from eden_memory.domain.scopes import Scope
from eden_memory.domain.text import content_hash, single_line
from tests.unit.domain.builders import PROPERTY, THOROUGH

MAX_WORDS = 30
NEW_USER = NewFact("Alice lives in Lyon", Scope.USER)
PARIS = Candidate(FactId("x1"), "Alice lives in Paris", Scope.USER, 0.9)
AGENT_FACT = Candidate(FactId("x2"), "Alice lives in Lyon", Scope.AGENT, 0.95)


def plan(
    decisions: list[DedupDecision],
    candidates: list[Candidate] | None = None,
    fact: NewFact = NEW_USER,
) -> DedupPlan:
    return plan_fact_operations([fact], [candidates or [PARIS]], decisions, MAX_WORDS)


def test_a_fact_without_candidates_is_added_without_any_decision() -> None:
    result = plan_fact_operations([NEW_USER], [[]], [], MAX_WORDS)
    assert result.operations == (AddFact(0, NEW_USER.content, Scope.USER),)
    assert result.overrides == ()
    assert needs_decision([[], [PARIS], []]) == [1]


def test_an_update_merges_into_the_candidate() -> None:
    decision = DedupDecision(0, DedupAction.UPDATE, "x1", "Alice lives in Lyon, not Paris", "moved")
    result = plan([decision])
    assert result.operations == (
        UpdateFact(0, FactId("x1"), "Alice lives in Lyon, not Paris", "moved"),
    )
    assert result.count(DedupAction.UPDATE) == 1


def test_a_delete_adds_the_new_fact_before_retiring_the_old_one() -> None:
    result = plan([DedupDecision(0, DedupAction.DELETE, "x1", None, "contradicted")])
    assert result.operations == (
        AddFact(0, "Alice lives in Lyon", Scope.USER),
        RetireFact(0, FactId("x1"), "contradicted"),
    )
    # The replacement of a DELETE is counted as the DELETE, not as an ADD.
    assert (result.count(DedupAction.ADD), result.count(DedupAction.DELETE)) == (0, 1)


def test_none_keeps_the_existing_fact() -> None:
    result = plan([DedupDecision(0, DedupAction.NONE, "x1")])
    assert result.operations == (KeepExisting(0, FactId("x1")),)


def test_an_agent_fact_can_cover_a_user_fact_but_not_the_reverse() -> None:
    assert plan([DedupDecision(0, DedupAction.NONE, "x2")], [AGENT_FACT]).operations == (
        KeepExisting(0, FactId("x2")),
    )
    new_agent = NewFact("Alice lives in Lyon", Scope.AGENT)
    user_candidate = Candidate(FactId("x3"), "Alice lives in Lyon", Scope.USER, 0.99)
    result = plan([DedupDecision(0, DedupAction.NONE, "x3")], [user_candidate], new_agent)
    assert result.operations == (AddFact(0, "Alice lives in Lyon", Scope.AGENT),)
    assert "cannot cover" in result.overrides[0].why
    assert may_cover(Scope.AGENT, Scope.USER)
    assert not may_cover(Scope.USER, Scope.AGENT)


def test_an_id_that_was_not_a_candidate_falls_back_to_add() -> None:
    for action in (DedupAction.UPDATE, DedupAction.DELETE, DedupAction.NONE):
        result = plan([DedupDecision(0, action, "x9", "Alice lives in Lyon")])
        assert result.operations == (AddFact(0, "Alice lives in Lyon", Scope.USER),)
        assert result.overrides[0].applied is DedupAction.ADD
        assert "not a candidate" in result.overrides[0].why


def test_a_scope_change_falls_back_to_add() -> None:
    for action in (DedupAction.UPDATE, DedupAction.DELETE):
        result = plan([DedupDecision(0, action, "x2", "Alice lives in Lyon now")], [AGENT_FACT])
        assert result.operations == (AddFact(0, "Alice lives in Lyon", Scope.USER),)
        assert "would move" in result.overrides[0].why


def test_a_missing_decision_falls_back_to_add_and_says_why() -> None:
    result = plan([])
    assert result.operations == (AddFact(0, "Alice lives in Lyon", Scope.USER),)
    assert result.overrides[0].given is None
    assert "no decision" in result.overrides[0].why


def test_an_update_without_valid_text_falls_back_to_add() -> None:
    for text in (None, "", "   ", "bad \x00 text", " ".join(["w"] * (MAX_WORDS + 1))):
        result = plan([DedupDecision(0, DedupAction.UPDATE, "x1", text)])
        assert result.operations == (AddFact(0, "Alice lives in Lyon", Scope.USER),)


def test_an_update_that_changes_nothing_keeps_the_existing_fact() -> None:
    result = plan([DedupDecision(0, DedupAction.UPDATE, "x1", "alice lives in PARIS.")])
    assert result.operations == (KeepExisting(0, FactId("x1")),)
    assert result.overrides[0].applied is DedupAction.NONE


def test_only_the_first_decision_for_a_fact_counts() -> None:
    result = plan(
        [
            DedupDecision(0, DedupAction.NONE, "x1"),
            DedupDecision(0, DedupAction.DELETE, "x1"),
            DedupDecision(5, DedupAction.DELETE, "x1"),
        ]
    )
    assert result.operations == (KeepExisting(0, FactId("x1")),)
    assert [o.why for o in result.overrides] == ["a second decision", "no such new fact"]


def test_a_fact_is_changed_at_most_once_per_plan() -> None:
    facts = [NewFact("Alice lives in Lyon", Scope.USER), NewFact("Alice moved", Scope.USER)]
    decisions = [
        DedupDecision(0, DedupAction.DELETE, "x1"),
        DedupDecision(1, DedupAction.UPDATE, "x1", "Alice moved to Lyon"),
    ]
    result = plan_fact_operations(facts, [[PARIS], [PARIS]], decisions, MAX_WORDS)
    assert result.operations == (
        AddFact(0, "Alice lives in Lyon", Scope.USER),
        RetireFact(0, FactId("x1"), ""),
        AddFact(1, "Alice moved", Scope.USER),
    )


def test_a_fact_kept_as_known_is_not_retired_by_a_later_fact_of_the_plan() -> None:
    facts = [NewFact("Alice lives in Paris", Scope.USER), NewFact("Alice moved", Scope.USER)]
    decisions = [
        DedupDecision(0, DedupAction.NONE, "x1"),
        DedupDecision(1, DedupAction.DELETE, "x1"),
    ]
    result = plan_fact_operations(facts, [[PARIS], [PARIS]], decisions, MAX_WORDS)
    assert result.operations == (
        KeepExisting(0, FactId("x1")),
        AddFact(1, "Alice moved", Scope.USER),
    )


def test_an_action_the_planner_does_not_know_is_never_executed() -> None:
    for garbage in ("FOO", "delete", "", "RETIRE"):
        action = cast(DedupAction, garbage)
        result = plan([DedupDecision(0, action, "x1", "Alice lives in Lyon")])
        assert result.operations == (AddFact(0, "Alice lives in Lyon", Scope.USER),)


def test_plain_strings_for_known_actions_mean_the_same_as_the_enum() -> None:
    result = plan([DedupDecision(0, cast(DedupAction, "NONE"), "x1")])
    assert result.operations == (KeepExisting(0, FactId("x1")),)


def test_one_candidate_list_per_fact_is_required() -> None:
    with pytest.raises(ValueError, match="one candidate list"):
        plan_fact_operations([NEW_USER], [], [], MAX_WORDS)


def test_exact_duplicates_are_dropped_within_their_scope() -> None:
    facts = [
        NewFact("Alice likes tea", Scope.USER),
        NewFact("alice likes TEA.", Scope.USER),
        NewFact("Alice likes tea", Scope.AGENT),
        NewFact("Bob likes tea", Scope.USER),
    ]
    known = {(Scope.USER, content_hash("Bob likes tea"))}
    kept, dropped = drop_exact_duplicates(facts, known)
    assert kept == (facts[0], facts[2])
    assert dropped == (facts[1], facts[3])


@PROPERTY
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "A.", "b", "b!", "c"]), st.sampled_from([Scope.USER, Scope.AGENT])
        ),
        max_size=10,
    ),
    st.sets(st.tuples(st.sampled_from([Scope.USER, Scope.AGENT]), st.sampled_from(["a", "c"]))),
)
def test_dropping_duplicates_keeps_one_of_each_unknown_statement_in_order(
    raw: list[tuple[str, Scope]], known_raw: set[tuple[Scope, str]]
) -> None:
    facts = [NewFact(text, scope) for text, scope in raw]
    known = {(scope, content_hash(text)) for scope, text in known_raw}
    kept, dropped = drop_exact_duplicates(facts, known)
    kept_left, dropped_left = list(kept), list(dropped)
    for fact in facts:  # kept and dropped split the input, each in input order
        side = kept_left if kept_left and kept_left[0] == fact else dropped_left
        assert side.pop(0) == fact
    assert kept_left == dropped_left == []
    keys = [(f.scope, f.hash) for f in kept]
    assert len(keys) == len(set(keys))
    assert not set(keys) & known
    assert {(f.scope, f.hash) for f in facts} == set(keys) | ({(f.scope, f.hash) for f in dropped})


def test_candidates_are_the_most_similar_hits_over_the_floor() -> None:
    hits = [
        Candidate(FactId(f"x{n}"), "c", Scope.USER, similarity)
        for n, similarity in enumerate([0.69, 0.7, 0.99, 0.8, 0.75, 0.91, 0.72])
    ]
    chosen = select_candidates(hits, 5, 0.7)
    assert [c.similarity for c in chosen] == [0.99, 0.91, 0.8, 0.75, 0.72]


@PROPERTY
@given(
    st.lists(st.floats(0, 1), max_size=12),
    st.integers(1, 6),
    st.floats(0, 1),
)
def test_candidates_are_bounded_and_over_the_floor(
    similarities: list[float], per_fact: int, floor: float
) -> None:
    hits = [Candidate(FactId(f"x{n}"), "c", Scope.USER, s) for n, s in enumerate(similarities)]
    chosen = select_candidates(hits, per_fact, floor)
    assert len(chosen) == min(per_fact, sum(s >= floor for s in similarities))
    assert all(c.similarity >= floor for c in chosen)
    assert [c.similarity for c in chosen] == sorted((c.similarity for c in chosen), reverse=True)


# -- properties over arbitrary, even garbage, LLM decisions -------------------------------

Case = tuple[list[NewFact], list[list[Candidate]], list[DedupDecision]]

EXISTING = {
    "x1": Candidate(FactId("x1"), "Alice lives in Paris", Scope.USER, 0.9),
    "x2": Candidate(FactId("x2"), "Alice likes tea", Scope.USER, 0.8),
    "x3": Candidate(FactId("x3"), "The office opens at 9", Scope.AGENT, 0.85),
    "x4": Candidate(FactId("x4"), "Refunds take 5 days", Scope.AGENT, 0.75),
}
TEXTS = st.one_of(
    st.none(),
    st.sampled_from(["Alice lives in Lyon", "alice lives in paris", "", " ", "a\x00b", "w " * 40]),
    st.text(max_size=30),
)


@st.composite
def dedup_cases(draw: st.DrawFn) -> Case:
    n = draw(st.integers(0, 5))
    facts = [
        NewFact(
            draw(st.sampled_from(["Alice lives in Lyon", "Tea is fine", "Opens at 10"])),
            draw(st.sampled_from([Scope.USER, Scope.AGENT])),
        )
        for _ in range(n)
    ]
    candidates = [
        [EXISTING[i] for i in draw(st.lists(st.sampled_from(sorted(EXISTING)), unique=True))]
        for _ in range(n)
    ]
    # Mostly one plausible answer per fact, plus missing, repeated and out-of-range ones.
    indexes = [i for i in range(n) if draw(st.integers(0, 5)) > 0]
    indexes += draw(st.lists(st.integers(-1, n + 1), max_size=3))
    decisions = [draw(decision_for(i, candidates)) for i in draw(st.permutations(indexes))]
    return facts, candidates, decisions


@st.composite
def contested_cases(draw: st.DrawFn) -> Case:
    """Several user facts shown the same two existing facts, each answer well formed."""
    shared = [EXISTING["x1"], EXISTING["x2"]]
    count = draw(st.integers(2, 4))
    facts = [NewFact(f"Statement {n}", Scope.USER) for n in range(count)]
    acting = [DedupAction.NONE, DedupAction.UPDATE, DedupAction.DELETE]
    decisions = [
        DedupDecision(
            index,
            draw(st.sampled_from(acting)),
            draw(st.sampled_from(["x1", "x2"])),
            draw(st.sampled_from([None, f"Merged statement {index}"])),
        )
        for index in range(count)
    ]
    return facts, [shared] * count, decisions


def any_cases() -> st.SearchStrategy[Case]:
    return st.one_of(dedup_cases(), contested_cases())


GARBAGE_ACTIONS = [cast(DedupAction, a) for a in ("FOO", "add", "")]
GARBAGE_IDS: list[str | None] = [None, *EXISTING, "x9", '{"$ne":1}']


@st.composite
def decision_for(draw: st.DrawFn, index: int, candidates: list[list[Candidate]]) -> DedupDecision:
    shown = [c.fact_id for c in candidates[index]] if 0 <= index < len(candidates) else []
    plausible = bool(shown) and draw(st.integers(0, 4)) > 0
    target = draw(st.sampled_from(shown if plausible else GARBAGE_IDS))
    action = draw(st.sampled_from([*DedupAction, *DedupAction, *GARBAGE_ACTIONS]))
    return DedupDecision(index, action, target, draw(TEXTS), draw(st.text(max_size=10)))


PRIMARY = (AddFact, UpdateFact, KeepExisting)


def targets(op: FactOperation) -> str | None:
    return None if isinstance(op, AddFact) else op.target_id


@THOROUGH
@given(any_cases())
def test_a_plan_never_retires_without_adding_the_replacement_first(case: Case) -> None:
    result = plan_fact_operations(*case, MAX_WORDS)
    ops = list(result.operations)
    for position, op in enumerate(ops):
        if isinstance(op, RetireFact):
            assert any(
                isinstance(earlier, AddFact) and earlier.fact_index == op.fact_index
                for earlier in ops[:position]
            )


@THOROUGH
@given(any_cases())
def test_a_plan_only_names_ids_among_that_facts_candidates(case: Case) -> None:
    facts, candidates, _ = case
    result = plan_fact_operations(*case, MAX_WORDS)
    for op in result.operations:
        assert 0 <= op.fact_index < len(facts)
        target = targets(op)
        if target is not None:
            assert target in {c.fact_id for c in candidates[op.fact_index]}


@THOROUGH
@given(any_cases())
def test_a_plan_never_changes_a_scope(case: Case) -> None:
    facts, _, _ = case
    result = plan_fact_operations(*case, MAX_WORDS)
    for op in result.operations:
        scope = facts[op.fact_index].scope
        if isinstance(op, AddFact):
            assert op.scope is scope
        elif isinstance(op, KeepExisting):
            assert may_cover(EXISTING[op.target_id].scope, scope)
        else:
            assert EXISTING[op.target_id].scope is scope


@THOROUGH
@given(any_cases())
def test_every_new_fact_has_exactly_one_primary_outcome(case: Case) -> None:
    facts, candidates, _ = case
    result = plan_fact_operations(*case, MAX_WORDS)
    for index in range(len(facts)):
        primary = [
            op for op in result.operations if isinstance(op, PRIMARY) and op.fact_index == index
        ]
        assert len(primary) == 1
        if not candidates[index]:
            assert [op for op in result.operations if op.fact_index == index] == [
                AddFact(index, facts[index].content, facts[index].scope)
            ]


@THOROUGH
@given(any_cases())
def test_a_plan_changes_each_existing_fact_at_most_once_and_keeps_none_it_retires(
    case: Case,
) -> None:
    result = plan_fact_operations(*case, MAX_WORDS)
    changed = [op.target_id for op in result.operations if isinstance(op, UpdateFact | RetireFact)]
    assert len(changed) == len(set(changed))
    retired = {op.target_id for op in result.operations if isinstance(op, RetireFact)}
    kept = {op.target_id for op in result.operations if isinstance(op, KeepExisting)}
    assert not retired & kept


@THOROUGH
@given(any_cases())
def test_planned_texts_are_valid_facts_and_unknown_actions_never_act(case: Case) -> None:
    facts, _, decisions = case
    result = plan_fact_operations(*case, MAX_WORDS)
    for op in result.operations:
        if isinstance(op, UpdateFact):
            assert single_line(op.content, max_words=MAX_WORDS) == op.content
            assert content_hash(op.content) != content_hash(EXISTING[op.target_id].content)
    first: dict[int, DedupDecision] = {}
    for decision in decisions:
        first.setdefault(decision.fact_index, decision)
    for index, decision in first.items():
        if 0 <= index < len(facts) and decision.action not in set(DedupAction):
            own = [op for op in result.operations if op.fact_index == index]
            assert own == [AddFact(index, facts[index].content, facts[index].scope)]


# -- an answer that misses its questions (issue 15: a real model skipped one fact) ---------


def test_a_skipped_fact_is_added_as_new_and_the_report_says_the_model_skipped_it() -> None:
    # Two facts were asked; the answer judged only the first: the second is kept, as new.
    facts = [NewFact("Alice lives in Lyon", Scope.USER), NewFact("Alice drinks coffee", Scope.USER)]
    decisions = [DedupDecision(0, DedupAction.DELETE, "x1", None, "moved")]
    result = plan_fact_operations(facts, [[PARIS], [EXISTING["x2"]]], decisions, MAX_WORDS)
    assert AddFact(1, "Alice drinks coffee", Scope.USER) in result.operations
    assert [(o.fact_index, o.applied, o.why) for o in result.overrides] == [
        (1, DedupAction.ADD, SKIPPED)
    ]


def test_an_answer_for_a_fact_that_was_not_asked_is_ignored_and_reported() -> None:
    facts = [NewFact("Alice lives in Lyon", Scope.USER), NewFact("Tea is fine", Scope.USER)]
    decisions = [
        DedupDecision(0, DedupAction.NONE, "x1"),
        DedupDecision(1, DedupAction.DELETE, "x1", None, "not asked"),
    ]
    result = plan_fact_operations(facts, [[PARIS], []], decisions, MAX_WORDS)
    assert result.operations == (
        KeepExisting(0, FactId("x1")),
        AddFact(1, "Tea is fine", Scope.USER),
    )
    assert [(o.fact_index, o.why) for o in result.overrides] == [(1, NOT_ASKED)]


@THOROUGH
@given(any_cases())
def test_every_asked_fact_without_an_answer_is_added_and_reported(case: Case) -> None:
    facts, candidates, decisions = case
    answered = {d.fact_index for d in decisions}
    result = plan_fact_operations(facts, candidates, decisions, MAX_WORDS)
    for index in needs_decision(candidates):
        if index not in answered:
            assert AddFact(index, facts[index].content, facts[index].scope) in result.operations
            assert any(o.fact_index == index and o.why == SKIPPED for o in result.overrides)


@THOROUGH
@given(any_cases())
def test_answers_for_facts_that_were_not_asked_change_nothing_but_the_report(case: Case) -> None:
    facts, candidates, decisions = case
    asked = set(needs_decision(candidates))
    kept = [d for d in decisions if d.fact_index in asked]
    with_extra = plan_fact_operations(facts, candidates, decisions, MAX_WORDS)
    without = plan_fact_operations(facts, candidates, kept, MAX_WORDS)
    assert with_extra.operations == without.operations
    extra = [d for d in decisions if d.fact_index not in asked]
    assert len(with_extra.overrides) == len(without.overrides) + len(extra)


def test_a_merged_agent_fact_that_brings_in_a_users_identifier_is_not_written() -> None:
    venue = Candidate(FactId("v1"), "The venue is the Lyon docks", Scope.AGENT, 0.9)
    new = NewFact("The venue is the Lyon docks, pier 3", Scope.AGENT)
    leaked = "The venue is the Lyon docks, pier 3; call Bob on +33 6 12 34 56 78"
    update = DedupDecision(0, DedupAction.UPDATE, "v1", leaked, "merged")
    result = plan([update], [venue], new)
    assert result.operations == (AddFact(0, new.content, Scope.AGENT),)
    delete = DedupDecision(0, DedupAction.DELETE, "v1", leaked, "moved")
    assert plan([delete], [venue], new).operations[0] == AddFact(0, new.content, Scope.AGENT)
