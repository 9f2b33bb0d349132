"""A judge reads a search's best results with the question: none answers, nothing comes back.

Off by default; on, one call a search that found something, after abstention. The results
keep their order when some answer; a judge that fails or answers about other hits leaves
them exactly as a search without it would, and says so.
"""

from __future__ import annotations

from typing import Any

import pytest

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.application.metering import UsageMeter
from eden_memory.application.search.empty import nothing_found, stored_nothing
from eden_memory.application.search.shapes import WhyEmpty
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.judging import JudgeBy
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.llm import LLMRequest
from tests.application.story import START

FACTS = [
    "Ana has a cat named Miso",
    "Ana moved from Porto to Braga in 2024",
    "Ana's brother lives in Lisbon",
    "Ana started a job in Braga after her move",
    "Bob prefers tea over coffee",
]
QUESTION = ["Where did Ana move"]


def settings(**search: Any) -> MemorySettings:
    return MemorySettings(search=SearchSettings(abstain_below=0.0, **search))


async def memory(
    chosen: MemorySettings, llm: ScriptedLLM, meter: UsageMeter | None = None
) -> MemoryService:
    service = MemoryService(
        memory_stores(), KeywordEmbedder(), llm, FakeClock(START), chosen, meter=meter
    )
    at = START.isoformat()
    await service.admin.add_facts(
        [{"content": c, "agent_id": "nova", "user_id": "alice", "formed_at": at} for c in FACTS]
    )
    return service


def plain_of(service: MemoryService) -> MemoryService:
    """A service over the same facts without a judge: the results to compare with."""
    return MemoryService(
        service.admin.stores, KeywordEmbedder(), ScriptedLLM([]), FakeClock(START), settings()
    )


async def search(service: MemoryService, queries: list[str], **options: Any) -> Any:
    conv = service.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    return await service.search_facts(conv, queries, debug=True, **options)


def contents(found: Any) -> list[str]:
    return [r.fact.content for r in found.results]


def judging(*answers: dict[str, Any] | str | Exception) -> ScriptedLLM:
    return ScriptedLLM(by_purpose={"judge": list(answers)})


async def test_off_by_default_the_judge_is_not_asked() -> None:
    llm = judging()
    service = await memory(MemorySettings(), llm)
    found = await search(service, QUESTION)
    assert llm.requests == []
    assert found.debug.judge == ""
    assert SearchSettings().judge is JudgeBy.OFF


async def test_when_none_answers_the_search_returns_nothing_and_says_why() -> None:
    service = await memory(settings(judge=JudgeBy.LLM), judging({"answering": []}))
    plain = await search(plain_of(service), QUESTION)
    found = await search(service, QUESTION)
    assert found.results == []
    assert found.why_empty is WhyEmpty.JUDGED_UNANSWERED
    assert found.abstained == len(plain.results) > 0
    assert [r.fact.content for r in found.debug.not_answering] == contents(plain)
    assert found.debug.under_line == []
    assert stored_nothing(found)
    line = nothing_found(found)
    assert line is not None
    assert line.startswith("nothing answers: ")


async def test_when_one_answers_the_results_stay_as_they_were() -> None:
    service = await memory(settings(judge=JudgeBy.LLM), judging({"answering": [2]}))
    plain = await search(plain_of(service), QUESTION)
    found = await search(service, QUESTION)
    assert contents(found) == contents(plain)
    assert (found.why_empty, found.abstained) == (None, 0)
    assert found.debug.judge.endswith(": 1 of 3 answer")


async def test_the_judge_reads_the_question_and_only_the_best_results_and_is_metered() -> None:
    shown: list[str] = []

    def answer(request: LLMRequest, _schema: object) -> dict[str, list[int]]:
        shown.extend(line for line in request.prompt.splitlines() if line[:1].isdigit())
        return {"answering": [1]}

    meter = UsageMeter()
    llm = ScriptedLLM(by_purpose={"judge": answer})
    service = await memory(settings(judge=JudgeBy.LLM, judge_depth=2), llm, meter)
    plain = await search(plain_of(service), QUESTION)
    await search(service, QUESTION)
    assert "Question: Where did Ana move" in llm.requests[0].prompt
    assert shown == [f"{n}. {c}" for n, c in enumerate(contents(plain)[:2], start=1)]
    assert meter.snapshot().llm[("judge", llm.requests[0].model)].calls == 1


async def test_a_failing_judge_leaves_the_results_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    llm = judging(ProviderError("timed out"))
    service = await memory(settings(judge=JudgeBy.LLM), llm)
    plain = await search(plain_of(service), QUESTION)
    found = await search(service, QUESTION)
    assert contents(found) == contents(plain)
    assert found.why_empty is None
    assert "failed: timed out" in found.debug.judge
    assert "judging failed, the results are kept" in caplog.text


async def test_an_answer_about_other_hits_is_asked_again_then_ignored() -> None:
    llm = judging({"answering": [9]}, {"answering": [1, 1]})
    service = await memory(settings(judge=JudgeBy.LLM), llm)
    plain = await search(plain_of(service), QUESTION)
    found = await search(service, QUESTION)
    assert len(llm.calls_for("judge")) == 2
    assert contents(found) == contents(plain)
    assert "could not be used: hit 1 was named twice" in found.debug.judge


async def test_a_malformed_answer_leaves_the_results() -> None:
    llm = judging("not json", {"answering": "two"})
    service = await memory(settings(judge=JudgeBy.LLM), llm)
    plain = await search(plain_of(service), QUESTION)
    found = await search(service, QUESTION)
    assert contents(found) == contents(plain)
    assert "could not be used" in found.debug.judge


async def test_a_search_without_results_or_thresholds_asks_no_judge() -> None:
    llm = judging()
    service = await memory(settings(judge=JudgeBy.LLM), llm)
    nothing = await search(service, ["zzzz qqqq"])
    everything = await search(service, QUESTION, thresholds=False)
    assert llm.requests == []
    assert nothing.why_empty is WhyEmpty.NO_MATCH
    assert everything.results


async def test_judge_model_names_the_model_asked() -> None:
    llm = judging({"answering": [1]})
    service = await memory(settings(judge=JudgeBy.LLM, judge_model="small-judge"), llm)
    await search(service, QUESTION)
    assert llm.requests[0].model == "small-judge"


@pytest.mark.parametrize("depth", [0, 11])
def test_the_judge_reads_one_to_ten_results(depth: int) -> None:
    with pytest.raises(ValueError, match="judge_depth"):
        SearchSettings(judge_depth=depth)
