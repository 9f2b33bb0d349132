"""What a formation did, for hosts, logs and budgets."""

from __future__ import annotations

from dataclasses import dataclass, field

from eden_memory.domain.dedup import Override


@dataclass
class Usage:
    """LLM and embedding work, counted at the application's call sites."""

    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    embedding_calls: int = 0
    texts_embedded: int = 0
    llm_calls_by_purpose: dict[str, int] = field(default_factory=dict)

    def add_llm(self, purpose: str, input_tokens: int, output_tokens: int) -> None:
        self.llm_calls += 1
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        self.llm_calls_by_purpose[purpose] = self.llm_calls_by_purpose.get(purpose, 0) + 1

    def add_embedding(self, texts: int, tokens: int) -> None:
        self.embedding_calls += 1
        self.texts_embedded += texts
        self.input_tokens += tokens


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
    status: str  # "consolidated", "lost-race", "failed", "rejected" (the answer echoed the prompt)
    truncated: bool = False
    error: str = ""


@dataclass
class FormationReport:
    agent_id: str
    session_id: str
    trigger: str
    messages: int = 0
    resumed_plan: bool = False  # carried out the plan an interrupted formation saved
    facts_extracted: int = 0
    facts_rejected: list[Rejected] = field(default_factory=list)
    exact_duplicates: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    overrides: list[Override] = field(default_factory=list)
    facts_added: list[str] = field(default_factory=list)
    facts_updated: list[str] = field(default_factory=list)
    facts_retired: list[str] = field(default_factory=list)
    reflections: dict[str, int] = field(default_factory=dict)
    reflections_rejected: list[Rejected] = field(default_factory=list)
    consolidations: list[ConsolidationOutcome] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stage_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def llm_calls(self) -> int:
        return self.usage.llm_calls

    @property
    def embedding_calls(self) -> int:
        return self.usage.embedding_calls
