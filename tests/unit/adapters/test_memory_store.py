"""The in-memory store's extras: fault injection, private copies, and its BM25 ranking."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eden_memory.adapters.stores.memory import fail_next, memory_stores
from eden_memory.adapters.stores.memory.bm25 import bm25, words
from eden_memory.domain.errors import StoreUnavailableError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import FactRanking

T0 = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
AGENT = AgentId("agent-a")
SEES_AGENT = FactVisibility(AGENT, None, frozenset({Scope.AGENT}))


def fact(content: str, n: int = 0) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content=content,
        scope=Scope.AGENT,
        agent_id=AGENT,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model="test",
        embedding_dim=2,
    )


def test_its_keyword_floor_is_zero() -> None:
    ranking: FactRanking = memory_stores().ranking
    assert ranking.text_score_threshold == 0.0


async def test_fail_next_fails_one_call_then_the_method_works_again() -> None:
    store = memory_stores()
    fail_next(store, "add_facts", StoreUnavailableError("connection reset"))
    with pytest.raises(StoreUnavailableError):
        await store.facts.add_facts([fact("a")], [[1.0, 0.0]])
    assert await store.fact_reads.count_facts(ScopeKey.agent(AGENT)) == 0
    assert await store.facts.add_facts([fact("a")], [[1.0, 0.0]]) == [fact("a")]


async def test_failures_queue_up() -> None:
    store = memory_stores()
    fail_next(store, "get_facts", StoreUnavailableError("first"))
    fail_next(store, "get_facts", StoreUnavailableError("second"))
    for expected in ("first", "second"):
        with pytest.raises(StoreUnavailableError, match=expected):
            await store.facts.get_facts([])
    assert await store.facts.get_facts([]) == []


async def test_a_failure_after_the_work_leaves_the_change_in_place() -> None:
    store = memory_stores()
    fail_next(store, "add_facts", StoreUnavailableError("ack lost"), after=True)
    with pytest.raises(StoreUnavailableError):
        await store.facts.add_facts([fact("a")], [[1.0, 0.0]])
    assert await store.fact_reads.count_facts(ScopeKey.agent(AGENT)) == 1


def test_only_async_methods_can_be_made_to_fail() -> None:
    store = memory_stores()
    with pytest.raises(ValueError, match="add_fact"):
        fail_next(store, "add_fact", RuntimeError())
    with pytest.raises(ValueError, match="text_score_threshold"):
        fail_next(store, "text_score_threshold", RuntimeError())


async def test_vectors_are_private_copies() -> None:
    store = memory_stores()
    given = [1.0, 0.0]
    await store.facts.add_facts([fact("a")], [given])
    given[0] = 99.0
    returned = await store.facts.get_vectors([FactId("fact-0")])
    returned[FactId("fact-0")][1] = 99.0
    assert await store.facts.get_vectors([FactId("fact-0")]) == {FactId("fact-0"): [1.0, 0.0]}


async def test_keyword_ranking_scores_are_bm25() -> None:
    store = memory_stores()
    texts = ["Acme hired John", "Acme Acme builds rockets", "Bob sells bikes"]
    await store.facts.add_facts(
        [fact(t, n) for n, t in enumerate(texts)], [[1.0, 0.0]] * len(texts)
    )
    hits = await store.ranking.keyword_ranking("acme", SEES_AGENT, 10)
    expected = bm25("acme", {f"fact-{n}": t for n, t in enumerate(texts)})
    assert {h.id: h.score for h in hits} == pytest.approx(expected)


async def test_keyword_statistics_are_those_of_the_visible_facts_through_changes() -> None:
    store = memory_stores()
    owners = [None, UserId("u1"), UserId("u2"), UserId("u3")]
    texts = ["Acme hired John", "Acme builds rockets", "John sells bikes", "acme acme"]
    facts = [
        fact(f"{t} {n}", n).evolve(scope=Scope.USER, user_id=owners[n % 4])
        if owners[n % 4]
        else fact(f"{t} {n}", n)
        for n, t in enumerate(texts * 5)
    ]
    await store.facts.add_facts(facts, [[1.0, 0.0]] * len(facts))
    moved = facts[2].evolve(user_id=UserId("u1"), content="Acme moved here")
    await store.facts.update_fact(moved, None, 1)
    await store.facts.update_fact(facts[5].retired(T0, "contradicted", None), None, 1)
    await store.fact_records.delete_facts([facts[9].id])
    alice = FactVisibility(AGENT, UserId("u1"), frozenset({Scope.AGENT, Scope.USER}))
    live = {f.id: f for f in await store.facts.get_facts([f.id for f in facts])}
    seen = {str(i): f.content for i, f in live.items() if f.is_active and f.user_id in owners[:2]}
    hits = await store.ranking.keyword_ranking("acme john", alice, 50)
    assert {h.id: h.score for h in hits} == pytest.approx(bm25("acme john", seen))
    assert moved.id in {h.id for h in hits}


def test_words_are_lowercase_unicode_tokens() -> None:
    assert words("Zürich's CAFÉ, 2026!") == ["zürich", "s", "café", "2026"]


def test_bm25_prefers_more_occurrences_and_shorter_documents() -> None:
    scores = bm25(
        "rocket",
        {
            "twice": "rocket rocket launch",
            "once": "rocket launch today",
            "long": "rocket launch today with many more words here",
            "none": "bicycle",
        },
    )
    assert scores["twice"] > scores["once"] > scores["long"] > 0
    assert "none" not in scores


def test_bm25_weighs_rare_terms_more() -> None:
    corpus = {"a": "common rare", "b": "common word", "c": "common thing"}
    scores = bm25("common rare", corpus)
    assert scores["a"] > scores["b"] == scores["c"] > 0
    assert bm25("", corpus) == {}
    assert bm25("x", {}) == {}
