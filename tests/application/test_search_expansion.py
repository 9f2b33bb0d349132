"""Queries the memory's LLM adds to a search: wider candidates, the same number of results,
and a search that still runs when the model fails."""

from __future__ import annotations

from typing import Any

import pytest

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.rerankers.fake import WordOverlapReranker
from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.application.metering import UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ConfigurationError, InvalidLLMOutputError, ProviderError
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from tests.application.story import START

FACTS = [
    "Ana moved from Porto to Braga in 2024",
    "Ana has a cat named Miso",
    "Bob prefers tea over coffee",
    "The Mars festival budget is 50000 dollars",
]


def settings(**search: Any) -> MemorySettings:
    return MemorySettings(search=SearchSettings(abstain_below=0.0, **search))


async def memory(chosen: MemorySettings, llm: ScriptedLLM, **more: Any) -> MemoryService:
    service = MemoryService(
        memory_stores(), KeywordEmbedder(), llm, FakeClock(START), chosen, **more
    )
    at = START.isoformat()
    await service.admin.add_facts(
        [{"content": c, "agent_id": "nova", "user_id": "ana", "formed_at": at} for c in FACTS]
    )
    return service


async def search(service: MemoryService, queries: list[str], top_k: int | None = None) -> Any:
    conv = service.conversation(AgentMemoryConfig("nova"), "s1", ["ana"])
    return await service.search_facts(conv, queries, top_k, debug=True)


def contents(found: Any) -> list[str]:
    return [r.fact.content for r in found.results]


QUESTION = "What animal lives with Ana in Braga"


async def test_an_added_query_finds_what_the_question_s_words_do_not() -> None:
    plain = await memory(settings(), ScriptedLLM([]))
    assert contents(await search(plain, [QUESTION], 1)) == [FACTS[0]]  # Braga, not the cat
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": ["Ana's pet cat Miso"]}]})
    service = await memory(settings(expand=True), llm)
    found = await search(service, [QUESTION], 1)
    assert contents(found) == ["Ana has a cat named Miso"]
    assert [q.query for q in found.debug.queries] == [QUESTION, "Ana's pet cat Miso"]
    assert found.debug.expansion.endswith(": 1 added")
    (request,) = llm.requests
    assert request.purpose == "expand"
    assert f"Question: {QUESTION}" in request.prompt
    assert "Write 2 other ways to search" in request.prompt


async def test_the_results_are_at_most_top_k_for_the_caller_s_query() -> None:
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": ["Bob tea", "festival budget"]}]})
    service = await memory(settings(expand=True), llm)
    found = await search(service, ["Ana"], 1)
    assert len(found.results) == 1
    assert len(found.debug.queries) == 3


async def test_a_search_given_every_query_it_may_take_asks_nothing() -> None:
    llm = ScriptedLLM(by_purpose={"expand": []})
    service = await memory(settings(expand=True), llm)
    await search(service, ["Ana", "Bob", "Mars"])
    assert llm.requests == []


async def test_off_by_default() -> None:
    llm = ScriptedLLM(by_purpose={"expand": []})
    service = await memory(settings(), llm)
    found = await search(service, ["Ana"])
    assert llm.requests == []
    assert found.debug.expansion == ""


@pytest.mark.parametrize("failure", [ProviderError("timed out"), InvalidLLMOutputError("not JSON")])
async def test_a_failing_model_leaves_the_given_queries(failure: Exception) -> None:
    llm = ScriptedLLM(by_purpose={"expand": [failure, failure]})
    service = await memory(settings(expand=True), llm)
    found = await search(service, ["Ana cat"])
    assert contents(found)[0] == "Ana has a cat named Miso"
    assert [q.query for q in found.debug.queries] == ["Ana cat"]
    assert "failed" in found.debug.expansion


async def test_repeats_and_oversize_proposals_are_not_searched() -> None:
    proposals = {"queries": ["  ana CAT ", "x" * 2000, "Miso the cat"]}
    llm = ScriptedLLM(by_purpose={"expand": [proposals]})
    service = await memory(settings(expand=True), llm)
    found = await search(service, ["Ana cat"])
    assert [q.query for q in found.debug.queries] == ["Ana cat", "Miso the cat"]


async def test_a_reranker_judges_against_the_caller_s_queries_only() -> None:
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": ["Ana's pet cat"]}]})
    reranker = WordOverlapReranker()
    chosen = settings(expand=True, rerank=RerankBy.LLM)
    service = await memory(chosen, llm, reranker=reranker)
    await search(service, ["Does Ana have an animal"])
    assert [queries for queries, _ in reranker.calls] == [["Does Ana have an animal"]]


async def test_expansion_is_metered_under_its_purpose() -> None:
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": []}]})
    meter = UsageMeter()
    service = await memory(settings(expand=True, expand_model="writer"), llm, meter=meter)
    await search(service, ["Ana"])
    assert meter.snapshot().llm[("expand", "writer")].calls == 1


async def test_an_unconfigured_model_is_a_configuration_error() -> None:
    llm = ScriptedLLM(by_purpose={"expand": [ConfigurationError("expand needs an LLM")]})
    service = await memory(settings(expand=True), llm)
    with pytest.raises(ConfigurationError, match="needs an LLM"):
        await search(service, ["Ana"])


async def test_with_two_queries_the_results_are_at_most_top_k_for_each() -> None:
    queries = ["Ana cat", "Mars festival"]
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": ["Bob prefers tea"]}]})
    found = await search(await memory(settings(expand=True), llm), queries, 1)
    assert len(found.debug.queries) == 3
    assert len(found.results) == 2


async def test_an_added_query_does_not_make_an_unrelated_fact_relevant() -> None:
    """Relevance is to what the caller asked: a search that abstains without expansion
    abstains with it, whatever the model proposed."""
    question = ["What is Carla's favourite film"]
    plain = await search(await memory(MemorySettings(), ScriptedLLM([])), question)
    assert plain.results == []
    llm = ScriptedLLM(by_purpose={"expand": [{"queries": ["Bob prefers tea over coffee"]}]})
    chosen = MemorySettings(search=SearchSettings(expand=True))
    found = await search(await memory(chosen, llm), question)
    assert found.results == []
    assert found.debug.abstained > 0


async def test_a_failed_expansion_is_logged_by_its_type_not_its_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    llm = ScriptedLLM(by_purpose={"expand": [ProviderError("timed out on Ana's question")]})
    await search(await memory(settings(expand=True), llm), ["Ana"])
    assert "query expansion failed, the given queries are searched: ProviderError" in caplog.text
    assert "Ana's question" not in caplog.text
