"""Judging a search's answer: the memory's LLM reads the best hits with the question.

Runs after abstention (``domain/judging.py`` says why and what it decides): when the judge
says none of the best ``judge_depth`` results answers, the search returns nothing and says
why (``judged_unanswered``); otherwise the results stay as they are, in their order. A judge
that fails (a provider error, an answer about other hits) leaves the results as they were
and says so in the search's debug output, its telemetry (the error's type only) and the log:
like a reranker, a second opinion never costs a search the facts it found.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from eden_memory.application.calls import ModelRouter, ask_usable
from eden_memory.application.prompts.judging import judge_prompt
from eden_memory.application.schemas import AnsweringMemories
from eden_memory.application.search.shapes import SearchResult
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.error_summary import summary
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.judging import JudgeAnswerError, JudgeBy, answering
from eden_memory.domain.model_choice import ModelRole, model_for
from eden_memory.domain.settings import SearchSettings
from eden_memory.ports.telemetry import Attribute, Telemetry

log = logging.getLogger(__name__)


class Judge(Protocol):
    """Says which of a few passages answer the queries (positions from 0; empty: none).

    Failures raise ``ProviderError`` subclasses, or ``JudgeAnswerError`` for an answer that
    does not fit the passages shown; the search then keeps its results.
    """

    @property
    def name(self) -> str: ...

    async def answering(self, queries: Sequence[str], passages: Sequence[str]) -> frozenset[int]:
        """The positions of the passages that answer the queries."""
        ...


@dataclass(frozen=True)
class ModelJudge:
    """The memory's LLM (its fast role, or ``model`` on that role's client) as judge."""

    models: ModelRouter
    model: str | None = None
    attempts: int = 2

    @property
    def name(self) -> str:
        return self.model or model_for(ModelRole.FAST, self.models.settings)

    async def answering(self, queries: Sequence[str], passages: Sequence[str]) -> frozenset[int]:
        return await ask_usable(
            self.models,
            "judge",
            judge_prompt(queries, passages),
            AnsweringMemories,
            lambda answer: answering(answer.answering, len(passages)),
            (JudgeAnswerError,),
            "the judge's answer",
            model=self.model,
            attempts=self.attempts,
        )


@dataclass(frozen=True)
class Judged:
    """A search's results after the judge: kept, or all held back when none answers."""

    results: list[SearchResult]
    held: list[SearchResult] = field(default_factory=list)  # judged: none answers
    note: str = ""  # what happened, for a search's debug output


async def judge_results(
    judge: Judge | None,
    queries: Sequence[str],
    results: Sequence[SearchResult],
    depth: int,
    telemetry: Telemetry = NO_TELEMETRY,
) -> Judged:
    """``results``, or none of them when the judge says none of the best ``depth`` answers
    ``queries``; as they were without a judge, without results, or when the judge fails."""
    if judge is None or not results:
        return Judged(list(results))
    shown = results[:depth]
    asked: dict[str, Attribute] = {"eden_memory.judge.model": judge.name}
    asked["eden_memory.judge.shown"] = len(shown)
    with telemetry.operation("eden_memory.search.judge", asked) as span:
        try:
            found = await judge.answering(queries, [r.fact.content for r in shown])
        except (ProviderError, JudgeAnswerError) as error:
            log.warning("judging failed, the results are kept: %s", summary(error))
            span.set("eden_memory.judge.failed", type(error).__name__)
            return Judged(list(results), note=f"{judge.name} failed: {error}")
        span.set("eden_memory.judge.answering", len(found))
    if found:
        return Judged(list(results), note=f"{judge.name}: {len(found)} of {len(shown)} answer")
    return Judged([], list(results), f"{judge.name}: none of the best {len(shown)} answers")


def search_judge(settings: SearchSettings, models: ModelRouter) -> Judge | None:
    """The judge a search uses: the memory's LLM for ``llm``, else none."""
    if settings.judge is JudgeBy.OFF:
        return None
    return ModelJudge(models, settings.judge_model)
