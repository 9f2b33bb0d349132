"""A reranked (or judged) search has a rerank (judge) span under it: the model, the
candidates, a failure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.judging import JudgeBy
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.reranker import Reranker
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.story import START
from tests.telemetry.conftest import Recorded

FACTS = ["Ana moved to Braga", "Ana has a cat named Miso", "Ana works in Braga"]


class Judge:
    name = "judge"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        if self.fail:
            raise ProviderError("timed out")
        return [float(len(p)) for p in passages]


async def step_of_search(
    recorded: Recorded,
    search: SearchSettings,
    step: str,
    llm: ScriptedLLM | None = None,
    reranker: Reranker | None = None,
) -> dict[str, Any]:
    """The attributes of one step of a search over a few facts; the step is its child."""
    memory = MemoryService(
        memory_stores(),
        KeywordEmbedder(),
        llm or ScriptedLLM([]),
        FakeClock(START),
        MemorySettings(search=search),
        telemetry=recorded.telemetry,
        reranker=reranker,
    )
    at = START.isoformat()
    await memory.admin.add_facts(
        [{"content": c, "agent_id": "nova", "user_id": "ana", "formed_at": at} for c in FACTS]
    )
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["ana"])
    await memory.search_facts(conv, ["Where does Ana live"])
    (parent,) = recorded.spans("eden_memory.search")
    (child,) = recorded.spans(step)
    assert child.parent is not None
    assert child.parent.span_id == parent.context.span_id
    return dict(child.attributes or {})


async def searched(recorded: Recorded, reranker: Reranker) -> dict[str, Any]:
    reranking = SearchSettings(rerank=RerankBy.LLM, abstain_below=0.0)
    return await step_of_search(recorded, reranking, "eden_memory.search.rerank", None, reranker)


async def test_a_reranked_search_reports_the_judge_and_what_it_judged(recorded: Recorded) -> None:
    attributes = await searched(recorded, Judge())
    assert attributes["eden_memory.rerank.model"] == "judge"
    assert attributes["eden_memory.rerank.candidates"] >= 2
    assert attributes["eden_memory.rerank.judged"] == attributes["eden_memory.rerank.candidates"]
    assert "eden_memory.rerank.failed" not in attributes


async def test_a_failed_judgement_is_marked_on_its_span(recorded: Recorded) -> None:
    attributes = await searched(recorded, Judge(fail=True))
    assert attributes["eden_memory.rerank.failed"] == "ProviderError"


async def test_an_expanded_search_reports_what_was_added(recorded: Recorded) -> None:
    expanding = SearchSettings(expand=True, abstain_below=0.0)
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": ["Ana lives in a city", "Ana's home"]}]})
    attributes = await step_of_search(recorded, expanding, "eden_memory.search.expand", llm)
    assert attributes["eden_memory.expand.wanted"] == 2
    assert attributes["eden_memory.expand.added"] == 2


async def judged(recorded: Recorded, answer: dict[str, Any] | Exception) -> dict[str, Any]:
    judging = SearchSettings(judge=JudgeBy.LLM, abstain_below=0.0)
    llm = ScriptedLLM(by_purpose={"judge": [answer, answer]})
    return await step_of_search(recorded, judging, "eden_memory.search.judge", llm)


async def test_a_judged_search_reports_the_judge_and_how_many_answer(recorded: Recorded) -> None:
    attributes = await judged(recorded, {"answering": [1]})
    assert attributes["eden_memory.judge.shown"] == 3
    assert attributes["eden_memory.judge.answering"] == 1
    assert "eden_memory.judge.failed" not in attributes


async def test_a_failed_judge_is_marked_on_its_span_by_its_type_only(recorded: Recorded) -> None:
    attributes = await judged(recorded, ProviderError("the server said: Ana moved to Braga"))
    assert attributes["eden_memory.judge.failed"] == "ProviderError"
    assert not any("Braga" in str(v) for v in attributes.values())
