"""Usage accounting: totals, snapshot differences and scopes that follow the task."""

from __future__ import annotations

import asyncio

import pytest

from eden_memory.application.metering import MeteredEmbedder, MeteredLLM, UsageMeter
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.domain.usage import EmbeddingTally, LLMTally, UsageSnapshot
from eden_memory.ports.llm import LLMRequest
from tests.providers.fakes import FlakyEmbedder, FlakyLLM
from tests.providers.schemas import Facts

ANSWER: dict[str, object] = {"facts": [], "complete": True}


def ask(purpose: str, model: str = "fast-model") -> LLMRequest:
    return LLMRequest(model=model, system="s", prompt="p", purpose=purpose)


async def test_calls_and_tokens_are_counted_per_purpose_and_model() -> None:
    meter = UsageMeter()
    llm = MeteredLLM(FlakyLLM(ANSWER), meter)

    await llm.generate(ask("fact_extraction"), Facts)
    await llm.generate(ask("fact_extraction"), Facts)
    await llm.generate(ask("consolidation", "strong-model"), Facts)

    usage = meter.snapshot()
    assert usage.llm[("fact_extraction", "fast-model")] == LLMTally(2, 0, 200, 40)
    assert usage.llm_by_purpose()["consolidation"] == LLMTally(1, 0, 100, 20)
    assert usage.llm_by_model() == {
        "fast-model": LLMTally(2, 0, 200, 40),
        "strong-model": LLMTally(1, 0, 100, 20),
    }
    assert usage.llm_total == LLMTally(3, 0, 300, 60)


async def test_a_failed_call_counts_as_a_call_and_a_failure() -> None:
    meter = UsageMeter()
    llm = MeteredLLM(FlakyLLM(ANSWER, failures=[InvalidLLMOutputError("bad")]), meter)

    with pytest.raises(InvalidLLMOutputError):
        await llm.generate(ask("dedup"), Facts)

    assert meter.snapshot().llm == {("dedup", "fast-model"): LLMTally(calls=1, failures=1)}


async def test_embeddings_are_counted_per_model_with_texts_and_tokens() -> None:
    meter = UsageMeter()
    embedder = MeteredEmbedder(FlakyEmbedder(), meter)

    await embedder.embed(["a", "b", "c"], TextRole.PASSAGE)
    await embedder.embed(["d"], TextRole.PASSAGE)

    assert meter.snapshot().embeddings == {"flaky-embedding": EmbeddingTally(2, 0, 4, 12)}
    assert embedder.space.model == "flaky-embedding"


async def test_a_snapshot_difference_is_the_usage_of_what_ran_in_between() -> None:
    meter = UsageMeter()
    llm, embedder = MeteredLLM(FlakyLLM(ANSWER), meter), MeteredEmbedder(FlakyEmbedder(), meter)
    await llm.generate(ask("fact_extraction"), Facts)

    before = meter.snapshot()
    await llm.generate(ask("reflections"), Facts)
    await embedder.embed(["a"], TextRole.PASSAGE)
    spent = meter.snapshot() - before

    assert spent.llm == {("reflections", "fast-model"): LLMTally(1, 0, 100, 20)}
    assert spent.embedding_total == EmbeddingTally(1, 0, 1, 3)
    assert before + spent == meter.snapshot()
    assert meter.snapshot() - meter.snapshot() == UsageSnapshot()


async def test_a_scope_sees_its_own_work_and_the_tasks_it_starts_not_concurrent_work() -> None:
    meter = UsageMeter()
    llm = MeteredLLM(FlakyLLM(ANSWER, hold=0.01), meter)

    async def formation(purpose: str, calls: int) -> UsageSnapshot:
        with meter.scope() as usage:
            await asyncio.gather(*(llm.generate(ask(purpose), Facts) for _ in range(calls)))
            return usage.snapshot()

    first, second = await asyncio.gather(formation("one", 2), formation("two", 3))

    assert first.llm == {("one", "fast-model"): LLMTally(2, 0, 200, 40)}
    assert second.llm == {("two", "fast-model"): LLMTally(3, 0, 300, 60)}
    assert meter.snapshot().llm_total.calls == 5


async def test_nested_scopes_both_see_the_inner_work() -> None:
    meter = UsageMeter()
    llm = MeteredLLM(FlakyLLM(ANSWER), meter)

    with meter.scope() as outer:
        await llm.generate(ask("a"), Facts)
        with meter.scope() as inner:
            await llm.generate(ask("b"), Facts)
    await llm.generate(ask("c"), Facts)

    assert outer.snapshot().llm_total.calls == 2
    assert inner.snapshot().llm_total.calls == 1
    assert meter.snapshot().llm_total.calls == 3
