"""Concurrency limits: a semaphore per provider, honoured under load."""

from __future__ import annotations

import asyncio

import pytest

from eden_memory.adapters.wrappers import LimitedEmbedder, LimitedLLM
from eden_memory.domain.embedding_space import TextRole
from tests.providers.fakes import FlakyEmbedder, FlakyLLM, InFlight
from tests.providers.schemas import Facts, request

ANSWER: dict[str, object] = {"facts": [], "complete": True}


async def test_twenty_concurrent_calls_run_at_most_limit_at_a_time() -> None:
    inner = FlakyLLM(ANSWER, hold=0.01)
    llm = LimitedLLM(inner, limit=3)

    results = await asyncio.gather(*(llm.generate(request("m"), Facts) for _ in range(20)))

    assert len(results) == 20
    assert inner.calls == 20
    assert inner.in_flight.most == 3


async def test_wrappers_sharing_a_semaphore_share_the_limit() -> None:
    gemini, both = asyncio.Semaphore(2), InFlight()
    fast = LimitedLLM(FlakyLLM(ANSWER, hold=0.01, in_flight=both), gemini)
    strong = LimitedLLM(FlakyLLM(ANSWER, hold=0.01, in_flight=both), gemini)

    calls = [llm.generate(request("m"), Facts) for llm in (fast, strong) for _ in range(10)]
    await asyncio.gather(*calls)

    assert both.most == 2


async def test_the_embedder_limit_holds_too_and_the_space_passes_through() -> None:
    inner = FlakyEmbedder(hold=0.01)
    embedder = LimitedEmbedder(inner, limit=4)

    await asyncio.gather(*(embedder.embed(["a"], TextRole.PASSAGE) for _ in range(20)))

    assert inner.in_flight.most == 4
    assert embedder.space == inner.space


async def test_a_failed_call_frees_its_slot() -> None:
    inner = FlakyLLM(ANSWER, failures=[RuntimeError("boom")])
    llm = LimitedLLM(inner, limit=1)

    with pytest.raises(RuntimeError):
        await llm.generate(request("m"), Facts)
    assert (await asyncio.wait_for(llm.generate(request("m"), Facts), 1)).value.complete


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        LimitedLLM(FlakyLLM(ANSWER), limit=0)
