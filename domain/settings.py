"""Every tunable number of the design, typed and validated.

Each number is of a kind of ``domain.bounds`` (a count, a duration, a factor...): finite and
within the range the code can use, so a bad value is refused when the settings are built.

These are plain pydantic models: the domain never reads the environment. The composition
root (``eden_memory.config``) fills them from ``EDEN_MEMORY_*`` variables or arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from eden_memory.domain.bounds import (
    MAX_FACTOR,
    Count,
    Days,
    Depth,
    Factor,
    Hours,
    Minutes,
    PositiveCount,
    Seconds,
    SecondsOrZero,
    Tokens,
    Unit,
)
from eden_memory.domain.judging import MAX_JUDGED, JudgeBy
from eden_memory.domain.ranking import Fusion
from eden_memory.domain.reflection_checks import NOTES_PER_SCOPE
from eden_memory.domain.relevance import ABSTAIN_BELOW
from eden_memory.domain.reranking import RerankBy

if TYPE_CHECKING:  # scopes imports the agent settings, which build on these
    from eden_memory.domain.scopes import Scope


class _Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScopeNumbers(_Settings):
    """One positive number per scope (thresholds, word limits)."""

    agent: PositiveCount
    user: PositiveCount
    session: PositiveCount

    def of(self, scope: Scope) -> int:
        return int(getattr(self, scope.value))


class FactSettings(_Settings):
    # The facts subsystem (the seeds' RAG_ENABLED): off, no fact is extracted, shown or searched.
    enabled: bool = True
    fifo_enabled: bool = True
    fifo_limit: Count = 40
    fifo_max_age_hours: Hours = 168.0
    max_words: PositiveCount = 30


class DedupSettings(_Settings):
    enabled: bool = True
    candidates_per_fact: Depth = 5
    # None: the floor calibrated for the embedder's model (domain/calibration.py).
    min_similarity: Unit | None = None


class RoleWeights(_Settings):
    """How much a message of each role counts towards the token trigger."""

    user: Factor = 1.0
    tool: Factor = 0.5
    agent: Factor = 0.2
    other: Factor = 0.5


class FormationSettings(_Settings):
    message_interval: PositiveCount = 45
    token_interval: Tokens = 1500.0
    min_messages: PositiveCount = 4
    cold_after_minutes: Minutes = 10.0
    chars_per_token: Annotated[float, Field(ge=0.1, le=1000.0, allow_inf_nan=False)] = 4.5
    role_weights: RoleWeights = RoleWeights()
    claim_ttl_seconds: Seconds = 600.0
    max_messages_per_formation: PositiveCount = 400


class CapSettings(_Settings):
    """How much one formation may keep, scaled by its conversation's length (seed 004,
    ``domain.formation_caps``): a conversation of ``base_chars`` characters keeps up to
    ``facts`` facts and ``reflections_per_scope`` notes a level; ``log_base`` times longer
    doubles that, within ``[min_multiplier, max_multiplier]``. The defaults sit above what
    LoCoMo's sessions hold (at most 15 observations in 1-5k characters): a bound on a
    runaway model, not a target."""

    facts: Annotated[int, Field(ge=1, le=1_000_000)] = 30
    reflections_per_scope: Annotated[int, Field(ge=1, le=1_000_000)] = NOTES_PER_SCOPE
    base_chars: PositiveCount = 3000
    log_base: Annotated[float, Field(gt=1.0, le=MAX_FACTOR, allow_inf_nan=False)] = 10.0
    min_multiplier: Annotated[float, Field(gt=0.0, le=1000.0, allow_inf_nan=False)] = 0.5
    max_multiplier: Annotated[float, Field(gt=0.0, le=1000.0, allow_inf_nan=False)] = 2.0

    @model_validator(mode="after")
    def _clamp_is_a_range(self) -> Self:
        if self.min_multiplier > self.max_multiplier:
            raise ValueError("min_multiplier must not exceed max_multiplier")
        return self


class ConsolidationSettings(_Settings):
    thresholds: ScopeNumbers = ScopeNumbers(agent=10, user=4, session=4)
    word_limits: ScopeNumbers = ScopeNumbers(agent=1200, user=300, session=200)


class ReflectionSettings(_Settings):
    # The reflections subsystem (the seeds' ALWAYS_IN_CONTEXT_ENABLED): off, no reflection is
    # formed, consolidated or shown.
    enabled: bool = True
    max_words: PositiveCount = 35


class SearchSettings(_Settings):
    # None: the floor calibrated for the embedder's model (domain/calibration.py).
    semantic_threshold: Unit | None = None
    # None: the store's calibrated threshold (Atlas scores: 1.5; docs/record/decisions/search.md).
    text_threshold: Factor | None = None
    # How hybrid search fuses its lists (domain/ranking.py); weights from benchmarks/fusion.py.
    fusion: Fusion = Fusion.SCORE
    semantic_weight: Factor = 0.5
    keyword_weight: Factor = 0.5
    score_threshold: Unit = 0.0  # floor on the fused score of ``score`` fusion
    rrf_threshold: Unit = 0.015  # floor on the fused score of ``rrf`` fusion
    rrf_k: PositiveCount = 60
    # Facts said in the time a query names ("last week", "in May 2023") score this much
    # more, relatively (domain/temporal.py); 0 turns it off.
    time_boost: Factor = 0.25
    # A calendar date named ("on 13 October 2023") raises the facts said that day (give or
    # take one) by this much instead of ``time_boost``; 0 turns it off for dates.
    day_boost: Factor = 2.0
    # Each candidate gains this share of the lead over the weakest candidate of another
    # candidate from its session (domain/session_context.py); 0 turns it off. Chosen by
    # benchmarks/session_time.py.
    session_weight: Factor = 0.3
    # Between results about the same thing, the newer first and the older marked
    # (domain/conflicts.py); False: the fused order as it is.
    newer_first: bool = True
    # The cosine from which two results are about the same thing too (near-duplicates);
    # None: only facts of one supersede key are. Off by default: measured, no cosine tells an
    # update from a fact of the same kind (benchmarks/freshness.py).
    same_thing_similarity: Unit | None = None
    # Two results of one owner that give one attribute of one subject different values
    # ("lives in Portland" / "moved to Seattle", no key) are about the same thing too, for a
    # question about now (domain/attributes.py; chosen on benchmarks/personal_stores dev).
    same_attribute: bool = True
    # Scores decay by age with this half-life, in days (domain/decay.py); None: no decay.
    age_half_life_days: Days | None = None
    default_top_k: Depth = 10
    max_top_k: Depth = 50
    max_queries: PositiveCount = 3
    max_query_chars: PositiveCount = 1000
    candidates_per_list: Depth = 2
    # Each retriever fetches at least this many candidates, whatever ``top_k``: the session
    # and time raises can lift only what was fetched, and a top 10 drawn from 100 recalls
    # more than one drawn from 20 (issue 30, item 1: a top 10's R@10 +1.2 over LoCoMo
    # observations and +2.5 over dialog turns; depths chosen on one half of the
    # conversations and scored on the other, ``benchmarks/recall_depth.py``).
    min_candidates_per_list: Depth = 100
    # A search whose best hit's relevance is under this returns nothing (domain/relevance.py:
    # 0.5 is the line 95% of unrelated text stays under); 0 never abstains. Off with the
    # thresholds (``thresholds=False``).
    abstain_below: Unit = ABSTAIN_BELOW
    # A second judge reorders the best ``rerank_depth`` candidates of a search
    # (domain/reranking.py): off, the memory's LLM, or a local cross-encoder. ``rerank_model``:
    # the LLM's model name (None: the fast role's model), or the cross-encoder's folder.
    rerank: RerankBy = RerankBy.OFF
    rerank_depth: Annotated[int, Field(ge=1, le=100)] = 30
    rerank_model: str | None = None
    # After abstention, a judge reads the best ``judge_depth`` results with the question and
    # says whether any answers it; if none does, the search returns nothing (domain/judging.py).
    # Off, or the memory's LLM (``judge_model``: another model than the fast role's). One call
    # a search that found something; a judge that fails leaves the results as they were.
    judge: JudgeBy = JudgeBy.OFF
    judge_depth: Annotated[int, Field(ge=1, le=MAX_JUDGED)] = 3
    judge_model: str | None = None
    # The memory's LLM adds queries to a search given fewer than ``max_queries``
    # (application/search/expansion.py): statements of what an answering fact would be about. One
    # call a search; ``expand_model`` names another model than the fast role's.
    expand: bool = False
    expand_model: str | None = None
    # Query vectors remembered per process, per model, least recently used dropped first
    # (adapters/wrappers/query_cache.py; 0: none): 8 bytes a dimension, 3 MB at the default
    # for 384 dimensions, 12 MB for 1536, at most 2.5 GB at the bound for 3072.
    query_cache_entries: Annotated[int, Field(ge=0, le=100_000)] = 1024

    @model_validator(mode="after")
    def _top_k_fits(self) -> Self:
        if self.default_top_k > self.max_top_k:
            raise ValueError("default_top_k must not exceed max_top_k")
        if self.rerank is RerankBy.CROSS_ENCODER and not self.rerank_model:
            raise ValueError("rerank cross_encoder needs rerank_model: the model's folder")
        return self


class ContextSettings(_Settings):
    cache_ttl_seconds: SecondsOrZero = 300.0
    # Contexts cached per process, least recently used dropped first (0: no cache). About
    # 6 kB each for a typical memory (benchmarks/context_cache.py), ~20 kB with every blob at
    # its word limit: 6-20 MB at the default bound.
    cache_max_entries: Count = 1024
    # The agent's memory instructions in its <AgentMemory> section (seed 004's context did).
    show_instructions: bool = True
    # Contexts kept with their sessions in the store as well, so every worker serves what
    # one built (the same freshness rules; benchmarks/shared_context.py). Off: per process.
    cache_shared: bool = True


class ModelSettings(_Settings):
    """Model names per role; a provider adapter decides what they mean."""

    fast: str = "gemini-3-flash-preview"
    reflection_free: str = "gemini-3-flash-preview"
    reflection_premium: str = "gemini-3-pro-preview"
    premium_tier: Count = 1
    # The longest answer text parsed (characters): a formation's answer is ~20 kB at most
    # (60 facts of 30 words, a 1200-word blob); past this bound it is refused unparsed, so a
    # runaway answer of megabytes never becomes hundreds of thousands of objects.
    max_answer_chars: PositiveCount = 262_144


class MemorySettings(_Settings):
    """All behaviour settings of the memory system, with the design's defaults."""

    enabled: bool = True
    facts: FactSettings = FactSettings()
    dedup: DedupSettings = DedupSettings()
    formation: FormationSettings = FormationSettings()
    caps: CapSettings = CapSettings()
    consolidation: ConsolidationSettings = ConsolidationSettings()
    reflections: ReflectionSettings = ReflectionSettings()
    search: SearchSettings = SearchSettings()
    context: ContextSettings = ContextSettings()
    models: ModelSettings = ModelSettings()
