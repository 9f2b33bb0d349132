"""What a formation did, for hosts, logs and budgets."""

from __future__ import annotations

from dataclasses import dataclass, field

from eden_memory.domain.dedup import Override
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.usage import UsageSnapshot


@dataclass
class Usage:
    """LLM and embedding work of one piece of work (a formation, an ingestion), read from its
    metering scope; failed calls count as calls, as providers bill them."""

    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    embedding_calls: int = 0
    texts_embedded: int = 0
    llm_calls_by_purpose: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, spent: UsageSnapshot) -> Usage:
        llm, embedding = spent.llm_total, spent.embedding_total
        return cls(
            llm_calls=llm.calls,
            input_tokens=llm.input_tokens + embedding.input_tokens,
            output_tokens=llm.output_tokens,
            embedding_calls=embedding.calls,
            texts_embedded=embedding.texts,
            llm_calls_by_purpose={p: t.calls for p, t in spent.llm_by_purpose().items()},
        )


@dataclass(frozen=True)
class Rejected:
    """An item of LLM output that was not used, and why."""

    content: str
    why: str


@dataclass(frozen=True)
class ConsolidationOutcome:
    scope_key: str
    absorbed: int
    version: int | None
    # "consolidated", "lost-race", "failed", "rejected" (the answer echoed the prompt, held a
    # user's identifying details in agent memory, or specifics none of its inputs gave)
    status: str
    truncated: bool = False
    error: str = ""


@dataclass
class FormationReport:
    agent_id: AgentId
    session_id: SessionId
    trigger: str
    messages: int = 0
    resumed_plan: bool = False  # carried out the plan an interrupted formation saved
    facts_extracted: int = 0
    facts_rejected: list[Rejected] = field(default_factory=list)
    # Filed by the model under the agent, but identifying a user: kept as that user's own.
    facts_moved: list[Rejected] = field(default_factory=list)
    # Past the formation's cap (domain.formation_caps): counted, not kept, not checked.
    facts_capped: int = 0
    citations_trimmed: int = 0  # kept facts whose cited messages were cut to the closest three
    dates_resolved: int = 0  # kept facts and notes whose "last Saturday" became a date
    exact_duplicates: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    overrides: list[Override] = field(default_factory=list)
    facts_added: list[str] = field(default_factory=list)
    facts_updated: list[str] = field(default_factory=list)
    facts_retired: list[str] = field(default_factory=list)
    reflections: dict[str, int] = field(default_factory=dict)
    reflections_rejected: list[Rejected] = field(default_factory=list)
    reflections_moved: list[Rejected] = field(default_factory=list)  # as facts_moved
    reflections_capped: dict[str, int] = field(default_factory=dict)  # by scope, as above
    consolidations: list[ConsolidationOutcome] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stage_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def llm_calls(self) -> int:
        return self.usage.llm_calls

    @property
    def embedding_calls(self) -> int:
        return self.usage.embedding_calls
