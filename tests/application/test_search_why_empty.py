"""An empty search says why, in the normal response: hits held back under the relevance line,
facts visible but none matching, none visible to this user and agent, or none at all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eden_memory.application.search import SearchMode
from eden_memory.application.search.empty import nothing_found, reason, stored_nothing
from eden_memory.application.search.shapes import SearchResponse, WhyEmpty
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.ports.stores import Stores
from tests.application.stores import STORES, stores_of_kind
from tests.application.story import Story, make_world
from tests.application.test_search import _world

UNSTORED = ["Which dentist does Carla see?"]


async def test_an_abstaining_search_says_so_without_debug() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, UNSTORED)
    assert found.results == []
    assert found.debug is None
    assert found.why_empty is WhyEmpty.UNDER_LINE
    assert found.abstained > 0
    assert found.line == 0.5
    assert found.best_relevance is not None
    assert found.best_relevance < found.line


async def test_a_debug_caller_sees_the_hits_held_back_under_the_line() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, UNSTORED, debug=True)
    assert found.debug is not None
    held = found.debug.under_line
    assert len(held) == found.abstained
    relevances = [r.relevance for r in held if r.relevance is not None]
    assert len(relevances) == len(held)
    assert max(relevances) == found.best_relevance
    assert all(r < found.line for r in relevances)


async def test_a_search_with_results_is_unchanged_and_reports_its_best_relevance() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, ["Mars festival budget"], debug=True)
    assert found.results[0].fact.content == "The Mars festival budget is 50000 dollars"
    assert (found.why_empty, found.abstained) == (None, 0)
    assert found.best_relevance == max(r.relevance or 0.0 for r in found.results)
    assert found.debug is not None
    assert found.debug.under_line == []
    assert nothing_found(found) is None


async def test_without_thresholds_there_is_no_line() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, UNSTORED, thresholds=False)
    assert found.results
    assert (found.line, found.abstained, found.why_empty) == (0.0, 0, None)


async def test_visible_facts_that_no_retriever_matched_are_told_apart() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, ["zebra"], mode=SearchMode.KEYWORD)
    assert found.results == []
    assert (found.why_empty, found.abstained) == (WhyEmpty.NO_MATCH, 0)
    assert stored_nothing(found)


async def test_an_agent_holding_nothing_says_so() -> None:
    world, _ = await _world()
    stranger = world.memory.conversation(AgentMemoryConfig("nobody"), "s1", ["alice"])
    found = await world.memory.search_facts(stranger, ["Mars festival budget"])
    assert (found.results, found.why_empty) == ([], WhyEmpty.NO_FACTS)
    assert nothing_found(found, "nobody") == "agent 'nobody' holds no facts"
    assert not stored_nothing(found)


@pytest.fixture(params=STORES)
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Stores]:
    made = await stores_of_kind(request.param, tmp_path)
    yield made
    await made.close()


async def test_another_users_facts_are_not_visible_and_the_answer_says_so(stores: Stores) -> None:
    facts = {"my email is alice@example.com": [("Alice's email is alice@example.com", "user")]}
    world = make_world(Story(facts=facts), stores=stores)
    nobody = world.memory.conversation(AgentMemoryConfig("nova"), "s0", ["bob"])
    assert (await world.memory.search_facts(nobody, ["email"])).why_empty is WhyEmpty.NO_FACTS
    alice = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    await world.memory.record_messages(alice, world.messages(*facts))
    await world.memory.end_session(alice)
    bob = world.memory.conversation(AgentMemoryConfig("nova"), "s2", ["bob"])
    found = await world.memory.search_facts(bob, ["email"])
    assert (found.results, found.why_empty) == ([], WhyEmpty.NOT_VISIBLE)
    assert nothing_found(found) == "no fact visible to this user and agent"
    assert (await world.memory.search_facts(alice, ["email"])).results  # alice still finds it
    unmatched = await world.memory.search_facts(alice, ["zebra"], mode=SearchMode.KEYWORD)
    assert unmatched.why_empty is WhyEmpty.NO_MATCH


def test_each_reason_reads_as_its_own_line() -> None:
    held = SearchResponse([], None, 3, 0.42, 0.5, WhyEmpty.UNDER_LINE)
    assert nothing_found(held) == (
        "nothing relevant: best relevance 0.4200 under the line 0.5; 3 held back"
    )
    assert reason(held) == "best relevance 0.4200 under the line 0.5"
    unmatched = SearchResponse([], None, 0, None, 0.5, WhyEmpty.NO_MATCH)
    assert nothing_found(unmatched) == (
        "nothing matched: no visible fact passed the retrievers' floors"
    )
    assert nothing_found(SearchResponse([], why_empty=WhyEmpty.NO_FACTS)) == (
        "this agent holds no facts"
    )
