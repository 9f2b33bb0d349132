"""Reranking a search's best candidates: the memory's LLM as a judge, and the step itself.

``ModelReranker`` asks the fast model which of the numbered candidates help answer, best
first (``prompts/reranking.py``). ``rerank`` reorders a fused list by any ``Reranker``'s
scores; when the reranker fails (a provider error, an answer about other candidates) the
search keeps its fused order and says so in its debug output, its telemetry and the log: a
search that found facts must not come back empty because its second opinion did not.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from eden_memory.application.calls import ModelRouter, ask_usable
from eden_memory.application.prompts.reranking import rerank_prompt
from eden_memory.application.schemas import ChosenMemories
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.error_summary import summary
from eden_memory.domain.errors import ConfigurationError, ProviderError
from eden_memory.domain.ids import FactId
from eden_memory.domain.model_choice import ModelRole, model_for
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.reranking import (
    RerankAnswerError,
    RerankBy,
    rerank_order,
    scores_from_choice,
)
from eden_memory.domain.settings import SearchSettings
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.telemetry import Attribute, Telemetry

# The logger keeps the name hosts filter by, from before the module moved into a folder.
log = logging.getLogger("eden_memory.application.reranking")


@dataclass(frozen=True)
class ModelReranker:
    """The memory's LLM (its fast role, or ``model`` on that role's client) as reranker."""

    models: ModelRouter
    model: str | None = None
    attempts: int = 2

    @property
    def name(self) -> str:
        return self.model or model_for(ModelRole.FAST, self.models.settings)

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        return await ask_usable(
            self.models,
            "rerank",
            rerank_prompt(queries, passages),
            ChosenMemories,
            lambda answer: scores_from_choice(answer.relevant, len(passages)),
            (RerankAnswerError,),
            "the reranking answer",
            model=self.model,
            attempts=self.attempts,
        )


@dataclass(frozen=True)
class Reranked:
    hits: list[FusedHit]
    scores: dict[str, float] = field(default_factory=dict)  # fact id: the reranker's score
    note: str = ""  # what happened, for a search's debug output


async def rerank(
    reranker: Reranker,
    queries: Sequence[str],
    hits: Sequence[FusedHit],
    facts: Mapping[FactId, Fact],
    depth: int,
    telemetry: Telemetry = NO_TELEMETRY,
) -> Reranked:
    """``hits`` with their best ``depth`` in the reranker's order (the rest as they were)."""
    judged = list(hits[:depth])
    if len(judged) < 2:
        return Reranked(list(hits), note="fewer than two candidates: not reranked")
    asked: dict[str, Attribute] = {"eden_memory.rerank.model": reranker.name}
    asked["eden_memory.rerank.candidates"] = len(judged)
    with telemetry.operation("eden_memory.search.rerank", asked) as span:
        passages = [facts[FactId(h.id)].content for h in judged]
        try:
            scores = await reranker.scores(queries, passages)
            order = rerank_order(len(judged), scores)
        except (ProviderError, RerankAnswerError) as error:
            log.warning("reranking failed, the fused order is kept: %s", summary(error))
            span.set("eden_memory.rerank.failed", type(error).__name__)
            return Reranked(list(hits), note=f"{reranker.name} failed: {error}")
        span.set("eden_memory.rerank.judged", len(scores))
    reordered = [judged[i] for i in order] + list(hits[depth:])
    by_id = {judged[i].id: s for i, s in enumerate(scores)}
    return Reranked(reordered, by_id, f"{reranker.name}: {len(scores)} of {len(judged)} judged")


def search_reranker(
    settings: SearchSettings, models: ModelRouter, given: Reranker | None
) -> Reranker | None:
    """The reranker a search uses: the one given, else the memory's LLM for ``llm``."""
    if settings.rerank is RerankBy.OFF:
        return None
    if given is not None:
        return given
    if settings.rerank is RerankBy.LLM:
        return ModelReranker(models, settings.rerank_model)
    raise ConfigurationError(
        "search.rerank cross_encoder needs a reranker: open_memory builds one from "
        "search.rerank_model (the local extra), or pass reranker= to MemoryService"
    )
