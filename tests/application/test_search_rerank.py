"""A search's best candidates reordered by a reranker: by configuration, never at any cost.

The reranker sees the merged candidates of every query down to ``rerank_depth``; the
results are as many as without it, in its order; a reranker that fails leaves the fused
order, says so, and the search still answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.rerankers.fake import WordOverlapReranker
from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.application.metering import UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import ConfigurationError, InvalidLLMOutputError, ProviderError
from eden_memory.domain.reranking import RerankBy
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
    "The Mars festival budget is 50000 dollars",
]


def settings(**search: Any) -> MemorySettings:
    return MemorySettings(search=SearchSettings(abstain_below=0.0, **search))


async def memory(
    chosen: MemorySettings, reranker: Any = None, llm: Any = None, meter: UsageMeter | None = None
) -> MemoryService:
    service = MemoryService(
        memory_stores(),
        KeywordEmbedder(),
        llm or ScriptedLLM([]),
        FakeClock(START),
        chosen,
        meter=meter,
        reranker=reranker,
    )
    added = await service.admin.add_facts(
        [
            {"content": c, "agent_id": "nova", "user_id": "alice", "formed_at": START.isoformat()}
            for c in FACTS
        ]
    )
    assert len(added.added) == len(FACTS)
    return service


def plain_of(service: MemoryService) -> MemoryService:
    """A service over the same facts without reranking: the fused order to compare with."""
    clock = FakeClock(START)
    return MemoryService(
        service.admin.stores, KeywordEmbedder(), ScriptedLLM([]), clock, settings()
    )


def contents(found: Any) -> list[str]:
    return [r.fact.content for r in found.results]


class Reversing:
    """Scores the candidates in the reverse of the order it was shown them."""

    name = "reversing"

    def __init__(self) -> None:
        self.shown: list[list[str]] = []

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        self.shown.append(list(passages))
        return [float(i) for i in range(len(passages))]


class Failing:
    name = "failing"

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        raise self.error


async def search(service: MemoryService, queries: list[str], top_k: int | None = None) -> Any:
    conv = service.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    return await service.search_facts(conv, queries, top_k, debug=True)


async def test_the_results_come_in_the_reranker_s_order() -> None:
    reversing = Reversing()
    on = await memory(settings(rerank=RerankBy.LLM, rerank_depth=30), reversing)
    plain = await search(plain_of(on), ["Where did Ana move"], 3)
    found = await search(on, ["Where did Ana move"], 3)
    shown = reversing.shown[0]
    assert shown[:3] == contents(plain)  # the fused order, as deep as there were candidates
    assert contents(found) == list(reversed(shown))[:3]
    assert [r.rerank_score for r in found.results] == sorted(
        [r.rerank_score for r in found.results], reverse=True
    )
    assert found.debug.rerank == f"reversing: {len(shown)} of {len(shown)} judged"


async def test_a_reranker_lifts_a_fact_from_below_the_cut() -> None:
    """The fact the reranker prefers (more of the question's own words) was second in the
    fused order: with ``top_k`` 1 it is the result now."""
    on = await memory(settings(rerank=RerankBy.LLM), WordOverlapReranker())
    question = ["Where did Ana move"]
    plain = await search(plain_of(on), question, 2)
    found = await search(on, question, 1)
    wanted = "Ana started a job in Braga after her move"
    assert contents(plain) == ["Ana moved from Porto to Braga in 2024", wanted]
    assert contents(found) == [wanted]


async def test_off_by_default_the_reranker_is_not_asked() -> None:
    reversing = Reversing()
    service = await memory(settings(), reversing)
    found = await search(service, ["Where did Ana move"])
    assert reversing.shown == []
    assert found.debug.rerank == ""
    assert all(r.rerank_score is None for r in found.results)


async def test_the_reranker_sees_no_more_than_the_depth() -> None:
    reversing = Reversing()
    service = await memory(settings(rerank=RerankBy.LLM, rerank_depth=2), reversing)
    found = await search(service, ["Ana"], 1)
    assert [len(s) for s in reversing.shown] == [2]
    assert len(found.results) == 1


async def test_several_queries_are_judged_together_and_return_as_many_results() -> None:
    queries = ["Ana cat", "Bob tea"]
    reranker = WordOverlapReranker()
    service = await memory(settings(rerank=RerankBy.LLM), reranker)
    plain = await search(plain_of(service), queries, 1)
    found = await search(service, queries, 1)
    assert len(reranker.calls) == 1
    assert reranker.calls[0][0] == queries
    assert len(found.results) == len(plain.results) == 2


@pytest.mark.parametrize(
    "error", [ProviderError("timed out"), InvalidLLMOutputError("named other memories")]
)
async def test_a_failing_reranker_leaves_the_fused_order_and_says_so(
    error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    service = await memory(settings(rerank=RerankBy.LLM), Failing(error))
    plain = await search(plain_of(service), ["Where did Ana move"])
    found = await search(service, ["Where did Ana move"])
    assert contents(found) == contents(plain)
    assert found.debug.rerank.startswith("failing failed: ")
    assert "reranking failed, the fused order is kept" in caplog.text


class WrongLength:
    name = "wrong-length"

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        return [1.0] * (len(passages) + 1)


async def test_more_scores_than_candidates_leave_the_fused_order() -> None:
    service = await memory(settings(rerank=RerankBy.LLM), WrongLength())
    plain = await search(plain_of(service), ["Ana"])
    found = await search(service, ["Ana"])
    assert contents(found) == contents(plain)
    assert "scores for" in found.debug.rerank


async def test_the_memory_s_own_model_reranks_and_is_metered() -> None:
    def choose(request: LLMRequest, _schema: object) -> dict[str, list[int]]:
        lines = [line for line in request.prompt.splitlines() if line[:1].isdigit()]
        wanted = [int(line.split(".")[0]) for line in lines if "Braga" in line]
        return {"relevant": list(reversed(wanted))}

    llm = ScriptedLLM(by_purpose={"rerank": choose})
    meter = UsageMeter()
    service = await memory(settings(rerank=RerankBy.LLM), llm=llm, meter=meter)
    found = await search(service, ["Where did Ana move"], 2)
    assert all("Braga" in c for c in contents(found))
    assert [r.purpose for r in llm.requests] == ["rerank"]
    assert "Question: Where did Ana move" in llm.requests[0].prompt
    assert meter.snapshot().llm[("rerank", llm.requests[0].model)].calls == 1


async def test_a_model_naming_memories_it_was_not_shown_is_asked_again_then_ignored() -> None:
    llm = ScriptedLLM(by_purpose={"rerank": [{"relevant": [99]}, {"relevant": [1, 1]}]})
    service = await memory(settings(rerank=RerankBy.LLM), llm=llm)
    plain = await search(plain_of(service), ["Ana"])
    found = await search(service, ["Ana"])
    assert len(llm.requests) == 2
    assert contents(found) == contents(plain)
    assert "could not be used: memory 1 was named twice" in found.debug.rerank


async def test_rerank_model_names_the_model_asked() -> None:
    llm = ScriptedLLM(by_purpose={"rerank": [{"relevant": []}]})
    service = await memory(settings(rerank=RerankBy.LLM, rerank_model="small-judge"), llm=llm)
    await search(service, ["Ana"])
    assert llm.requests[0].model == "small-judge"


async def test_an_unconfigured_model_is_a_configuration_error_not_a_silent_fallback() -> None:
    llm = ScriptedLLM(by_purpose={"rerank": [ConfigurationError("rerank needs an LLM")]})
    service = await memory(settings(rerank=RerankBy.LLM), llm=llm)
    with pytest.raises(ConfigurationError, match="needs an LLM"):
        await search(service, ["Ana"])


def test_a_cross_encoder_must_be_given_or_built() -> None:
    chosen = settings(rerank=RerankBy.CROSS_ENCODER, rerank_model="/models/ce")
    with pytest.raises(ConfigurationError, match="cross_encoder needs a reranker"):
        MemoryService(memory_stores(), KeywordEmbedder(), ScriptedLLM([]), FakeClock(START), chosen)


def test_a_cross_encoder_without_its_folder_is_refused() -> None:
    with pytest.raises(ValueError, match="needs rerank_model"):
        SearchSettings(rerank=RerankBy.CROSS_ENCODER)


async def test_with_several_queries_a_failed_rerank_returns_what_no_rerank_would() -> None:
    """The reranker reads each query's winners and the deeper candidates after them: a
    failure, or no opinion, leaves exactly the results of a search without it."""
    queries = ["Ana", "Mars festival"]
    for judge in (Failing(ProviderError("timed out")), WrongLength()):
        service = await memory(settings(rerank=RerankBy.LLM), judge)
        plain = await search(plain_of(service), queries, 1)
        found = await search(service, queries, 1)
        assert contents(found) == contents(plain)
        assert "The Mars festival budget is 50000 dollars" in contents(found)


async def test_the_winners_of_every_query_are_shown_first() -> None:
    reversing = Reversing()
    queries = ["Ana", "Mars festival"]
    service = await memory(settings(rerank=RerankBy.LLM), reversing)
    plain = await search(plain_of(service), queries, 1)
    await search(service, queries, 1)
    assert reversing.shown[0][:2] == contents(plain)


async def test_a_depth_under_top_k_still_judges_every_result() -> None:
    reversing = Reversing()
    service = await memory(settings(rerank=RerankBy.LLM, rerank_depth=1), reversing)
    found = await search(service, ["Ana"], 3)
    assert [len(s) for s in reversing.shown] == [3]
    assert contents(found) == list(reversed(reversing.shown[0]))


async def test_relevance_and_abstention_hold_after_a_rerank() -> None:
    """A reranker reorders; it does not make an unrelated fact relevant."""
    abstaining = MemorySettings(search=SearchSettings(rerank=RerankBy.LLM))
    service = await memory(abstaining, Reversing())
    found = await search(service, ["Which dentist does Carla see"])
    assert found.results == []
    answered = await search(service, ["Mars festival budget"])
    assert answered.results
    assert all(r.relevance is not None for r in answered.results)


async def test_an_agent_with_its_own_search_settings_is_reranked_too() -> None:
    reranker = WordOverlapReranker()
    service = await memory(settings(rerank=RerankBy.LLM), reranker)
    own = AgentSettings.of({"search": {"default_top_k": 2}})
    conv = service.conversation(AgentMemoryConfig("nova", settings=own), "s1", ["alice"])
    found = await service.search_facts(conv, ["Where did Ana move"], debug=True)
    assert len(found.results) == 2
    assert reranker.calls
    assert found.debug is not None
    assert found.debug.rerank.startswith("word-overlap: ")
