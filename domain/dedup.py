"""Deduplication planning: from new facts, their candidates and an LLM's decisions to a safe plan.

The LLM only *proposes*. Every decision is checked against what the fact was actually shown;
anything off (unknown id, scope change, missing or malformed answer) falls back to the safe
action, ADD, and the reason is recorded. Nothing here destroys data: a contradicted fact is
retired, and only after the fact that replaces it has been added.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from eden_memory.domain.errors import InvalidMemoryTextError
from eden_memory.domain.ids import FactId
from eden_memory.domain.personal_details import personal_details
from eden_memory.domain.scopes import Scope
from eden_memory.domain.text import content_hash, single_line


class DedupAction(StrEnum):
    ADD = "ADD"
    UPDATE = "UPDATE"
    DELETE = "DELETE"
    NONE = "NONE"


@dataclass(frozen=True)
class NewFact:
    """A fact as extracted, before it is stored."""

    content: str
    scope: Scope

    @property
    def hash(self) -> str:
        return content_hash(self.content)


@dataclass(frozen=True)
class Candidate:
    """An existing visible fact similar to a new one."""

    fact_id: FactId
    content: str
    scope: Scope
    similarity: float


@dataclass(frozen=True)
class DedupDecision:
    """What the LLM proposed for the new fact at ``fact_index``."""

    fact_index: int
    action: DedupAction
    target_id: str | None = None
    text: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class AddFact:
    fact_index: int
    content: str
    scope: Scope


@dataclass(frozen=True)
class UpdateFact:
    fact_index: int
    target_id: FactId
    content: str
    reason: str


@dataclass(frozen=True)
class RetireFact:
    """Retire ``target_id``; it is superseded by the fact added for ``fact_index``."""

    fact_index: int
    target_id: FactId
    reason: str


@dataclass(frozen=True)
class KeepExisting:
    fact_index: int
    target_id: FactId


FactOperation = AddFact | UpdateFact | RetireFact | KeepExisting


@dataclass(frozen=True)
class Override:
    """A decision that was not executed as given, and why."""

    fact_index: int
    given: DedupDecision | None
    applied: DedupAction
    why: str


# Why a decision was not executed as given, for the two ways an answer can miss its questions.
SKIPPED = "the model gave no decision for this fact; it is added as new (nothing is lost)"
NOT_ASKED = "no decision was asked for this fact (it has no similar fact); the answer is ignored"


@dataclass(frozen=True)
class DedupPlan:
    operations: tuple[FactOperation, ...]
    overrides: tuple[Override, ...]

    def count(self, action: DedupAction) -> int:
        """How many new facts ended in ``action`` (a DELETE's replacement is not an ADD)."""
        replaced = {op.fact_index for op in self.operations if isinstance(op, RetireFact)}
        if action is DedupAction.ADD:
            return sum(
                isinstance(op, AddFact) and op.fact_index not in replaced for op in self.operations
            )
        kind = {
            DedupAction.UPDATE: UpdateFact,
            DedupAction.DELETE: RetireFact,
            DedupAction.NONE: KeepExisting,
        }[action]
        return sum(isinstance(op, kind) for op in self.operations)


def drop_exact_duplicates(
    facts: Sequence[NewFact], known: Collection[tuple[Scope, str]]
) -> tuple[tuple[NewFact, ...], tuple[NewFact, ...]]:
    """Split into (kept, dropped): a (scope, hash) already known or seen earlier is dropped."""
    seen = set(known)
    kept: list[NewFact] = []
    dropped: list[NewFact] = []
    for fact in facts:
        key = (fact.scope, fact.hash)
        (dropped if key in seen else kept).append(fact)
        seen.add(key)
    return tuple(kept), tuple(dropped)


def select_candidates(hits: Sequence[Candidate], limit: int, floor: float) -> tuple[Candidate, ...]:
    """The ``limit`` most similar hits at or above the similarity ``floor``."""
    eligible = [h for h in hits if h.similarity >= floor]
    eligible.sort(key=lambda h: (-h.similarity, h.fact_id))
    return tuple(eligible[:limit])


def may_cover(candidate: Scope, new: Scope) -> bool:
    """An existing fact makes a new one redundant only if everyone who sees the new one sees it."""
    return candidate == new or (candidate is Scope.AGENT and new is Scope.USER)


@dataclass
class _Planner:
    facts: Sequence[NewFact]
    candidates: Sequence[Sequence[Candidate]]
    max_words: int
    operations: list[FactOperation]
    overrides: list[Override]
    touched: set[str]
    retired: set[str]
    # Existing facts a new fact was judged already covered by: never retired by the same plan.
    kept: set[str] = field(default_factory=set)

    def plan(self, index: int, decision: DedupDecision | None) -> None:
        fact = self.facts[index]
        if not self.candidates[index]:
            self.operations.append(AddFact(index, fact.content, fact.scope))
            return
        if decision is None:
            self.fallback(index, None, SKIPPED)
            return
        try:
            decision = replace(decision, action=DedupAction(decision.action))
        except ValueError:
            self.fallback(index, decision, f"unknown action {decision.action!r}")
            return
        if decision.action is DedupAction.ADD:
            content = self.text_or_none(decision) or fact.content
            self.operations.append(AddFact(index, content, fact.scope))
            return
        target = self.target(index, decision)
        if target is None:
            return
        if decision.action is DedupAction.NONE:
            self.keep(index, decision, target)
        elif decision.action is DedupAction.UPDATE:
            self.update(index, decision, target)
        else:
            self.retire(index, decision, target)

    def target(self, index: int, decision: DedupDecision) -> Candidate | None:
        fact = self.facts[index]
        shown = {c.fact_id: c for c in self.candidates[index]}
        target = shown.get(FactId(decision.target_id or ""))
        if target is None:
            self.fallback(index, decision, f"target {decision.target_id!r} was not a candidate")
            return None
        if decision.action is DedupAction.NONE:
            if not may_cover(target.scope, fact.scope):
                self.fallback(
                    index, decision, f"a {target.scope} fact cannot cover a {fact.scope} one"
                )
                return None
        elif target.scope != fact.scope:
            self.fallback(index, decision, f"would move a {target.scope} fact to {fact.scope}")
            return None
        return target

    def keep(self, index: int, decision: DedupDecision, target: Candidate) -> None:
        if target.fact_id in self.retired:
            self.fallback(index, decision, "its target is retired by this plan")
            return
        self.kept.add(target.fact_id)
        self.operations.append(KeepExisting(index, target.fact_id))

    def update(self, index: int, decision: DedupDecision, target: Candidate) -> None:
        text = self.text_or_none(decision)
        if text is None:
            self.fallback(index, decision, "UPDATE without a valid merged text")
        elif target.fact_id in self.touched:
            self.fallback(index, decision, "its target is already changed by this plan")
        elif content_hash(text) == content_hash(target.content):
            self.kept.add(target.fact_id)
            self.operations.append(KeepExisting(index, target.fact_id))
            self.overrides.append(
                Override(index, decision, DedupAction.NONE, "the update changes nothing")
            )
        else:
            self.touched.add(target.fact_id)
            self.operations.append(UpdateFact(index, target.fact_id, text, decision.reason))

    def retire(self, index: int, decision: DedupDecision, target: Candidate) -> None:
        if target.fact_id in self.touched:
            self.fallback(index, decision, "its target is already changed by this plan")
            return
        if target.fact_id in self.kept:
            self.fallback(index, decision, "its target is kept as already known by this plan")
            return
        fact = self.facts[index]
        content = self.text_or_none(decision) or fact.content
        self.touched.add(target.fact_id)
        self.retired.add(target.fact_id)
        # The replacement first: a store must never end up with neither.
        self.operations.append(AddFact(index, content, fact.scope))
        self.operations.append(RetireFact(index, target.fact_id, decision.reason))

    def text_or_none(self, decision: DedupDecision) -> str | None:
        """The model's text, if usable: one line within the limit, and for an agent fact
        (shown to every user) no user's identifier the new fact did not carry (issue 40)."""
        if decision.text is None:
            return None
        try:
            text = single_line(decision.text, max_words=self.max_words, what="fact")
        except InvalidMemoryTextError:
            return None
        fact = self.facts[decision.fact_index]
        if fact.scope is Scope.AGENT and personal_details(text):
            return None
        return text

    def fallback(self, index: int, given: DedupDecision | None, why: str) -> None:
        fact = self.facts[index]
        self.operations.append(AddFact(index, fact.content, fact.scope))
        self.overrides.append(Override(index, given, DedupAction.ADD, why))


def plan_fact_operations(
    facts: Sequence[NewFact],
    candidates: Sequence[Sequence[Candidate]],
    decisions: Sequence[DedupDecision],
    max_words: int,
) -> DedupPlan:
    """Turn proposals into operations, one fact at a time, in order.

    ``candidates[i]`` are the candidates shown for ``facts[i]``. The first decision per fact
    counts; decisions for unknown indexes are recorded and ignored.
    """
    if len(candidates) != len(facts):
        raise ValueError("one candidate list per new fact is required")
    planner = _Planner(facts, candidates, max_words, [], [], set(), set())
    chosen: dict[int, DedupDecision] = {}
    for decision in decisions:
        if not 0 <= decision.fact_index < len(facts):
            planner.overrides.append(
                Override(decision.fact_index, decision, DedupAction.NONE, "no such new fact")
            )
        elif not candidates[decision.fact_index]:
            # Not asked: it had no similar fact, so it is added whatever the answer says.
            planner.overrides.append(
                Override(decision.fact_index, decision, DedupAction.ADD, NOT_ASKED)
            )
        elif decision.fact_index in chosen:
            planner.overrides.append(
                Override(decision.fact_index, decision, DedupAction.NONE, "a second decision")
            )
        else:
            chosen[decision.fact_index] = decision
    for index in range(len(facts)):
        planner.plan(index, chosen.get(index))
    return DedupPlan(tuple(planner.operations), tuple(planner.overrides))


def needs_decision(candidates: Sequence[Sequence[Candidate]]) -> list[int]:
    """Indexes of the facts the LLM must judge: those with at least one candidate."""
    return [i for i, found in enumerate(candidates) if found]
