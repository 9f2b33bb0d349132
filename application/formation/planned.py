"""What formation decided to write, before it writes anything."""

from __future__ import annotations

from dataclasses import dataclass, field

from eden_memory.application.formation.extraction import SourcedFact
from eden_memory.domain.dedup import AddFact, DedupPlan, UpdateFact
from eden_memory.domain.ids import FactId


@dataclass(frozen=True)
class PlannedFacts:
    """A dedup plan with everything its writes need: no model call is left to make."""

    plan: DedupPlan
    kept: list[SourcedFact]
    ids: list[FactId]  # derived from each kept fact's messages: a retry writes the same ids
    vectors: list[list[float]]  # of each kept fact as said
    versions: dict[FactId, int] = field(default_factory=dict)  # of each target when planned
    rewritten: dict[str, list[float]] = field(default_factory=dict)  # texts the plan rewrote

    @classmethod
    def nothing(cls) -> PlannedFacts:
        return cls(DedupPlan((), ()), [], [], [])

    def texts(self) -> list[str]:
        """What the facts will say once written (for the reflection prompt)."""
        ops = self.plan.operations
        return [op.content for op in ops if isinstance(op, AddFact | UpdateFact)]

    def vector_of(self, index: int, content: str) -> list[float]:
        """The vector of the text written for kept fact ``index``."""
        return (
            self.vectors[index]
            if content == self.kept[index].fact.content
            else self.rewritten[content]
        )
