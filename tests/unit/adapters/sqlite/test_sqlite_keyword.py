"""Keyword search takes any text safely, folds accents, and scores with BM25 (larger better)."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.keyword import scoring as keyword
from eden_memory.adapters.stores.sqlite.keyword.scoring import fts_query, query_words
from eden_memory.domain.idf import FTS5_IDF_FLOOR
from eden_memory.domain.ids import AgentId, FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores

T0 = datetime(2026, 2, 1, tzinfo=UTC)
A = AgentId("agent")
VIEWER = FactVisibility(A, None, frozenset({Scope.AGENT}))
HOSTILE = [
    '"',
    '""',
    "'",
    "AND",
    "OR NOT",
    "NEAR(kayak budget, 3)",
    "kayak*",
    "*",
    "^kayak",
    "content:kayak",
    "(kayak",
    "kayak)",
    "'; DROP TABLE facts; --",
    'a"b"c',
    "-kayak +budget",
    "\x00kayak",
    "🎉🎉",
    "",
    "   ",
    "kayak " * 500,
]


def fact(n: int, content: str) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content=content,
        scope=Scope.AGENT,
        agent_id=A,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model="m",
        embedding_dim=2,
    )


CORPUS = [
    "Zoë booked a kayak trip to Tromsø",
    "The café on Rue Cler serves crêpes",
    "The kayak budget is 500 euros",
    "東京 office opens in March",
    "Ticket INC-4521 tracks the login outage",
    *(f"The team meets every week, note {n}" for n in range(20)),
]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Stores]:
    async with await open_sqlite(tmp_path / "memory.db") as opened:
        facts = [fact(n, text) for n, text in enumerate(CORPUS)]
        await opened.facts.add_facts(facts, [[1.0, 0.0]] * len(facts))
        yield opened


async def contents(store: Stores, hits: list[Hit]) -> list[str]:
    return [f.content for f in await store.facts.get_facts([h.id for h in hits])]


async def found(store: Stores, text: str) -> list[str]:
    """The contents of the facts ``text`` finds, best first."""
    return await contents(store, await store.ranking.keyword_ranking(text, VIEWER, 5))


def test_every_token_is_quoted_and_operators_are_words() -> None:
    # "AND" and "OR" are stop words ("and", "or"): left out beside other words...
    assert fts_query(query_words('kayak AND "budget" OR NEAR(x)')) == (
        '"kayak" OR "budget" OR "NEAR" OR "x"'
    )
    # ...and kept, as quoted words, in a query of stop words only.
    assert fts_query(query_words("AND OR NOT")) == '"AND" OR "OR" OR "NOT"'
    assert fts_query(query_words("  ?!*()  ")) is None


@pytest.mark.parametrize("text", HOSTILE)
async def test_hostile_queries_never_fail(store: Stores, text: str) -> None:
    hits = await store.ranking.keyword_ranking(text, VIEWER, 10)
    assert all(h.score > 0 for h in hits)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=80))
async def test_any_text_is_a_safe_query(store: Stores, text: str) -> None:
    await store.ranking.keyword_ranking(text, VIEWER, 5)


async def test_accents_and_case_are_folded(store: Stores) -> None:
    assert await found(store, "CAFE crepes") == [CORPUS[1]]
    assert await found(store, "zoe tromso") == [CORPUS[0]]
    assert await found(store, "東京") == [CORPUS[3]]
    assert await found(store, "inc-4521?") == [CORPUS[4]]


async def test_scores_are_positive_larger_better_and_calibrated(store: Stores) -> None:
    hits = await store.ranking.keyword_ranking("kayak budget", VIEWER, 5)
    assert await contents(store, hits) == [CORPUS[2], CORPUS[0]]
    assert hits[0].score > hits[1].score >= store.ranking.text_score_threshold
    common = await store.ranking.keyword_ranking("the team", VIEWER, 50)
    assert common
    assert all(h.score < store.ranking.text_score_threshold for h in common)


async def test_the_tokenizer_folds_the_query_as_it_folded_the_facts(tmp_path: Path) -> None:
    async with await open_sqlite(tmp_path / "memory.db") as store:
        await store.facts.add_facts([fact(1, "Ada lives on the Hauptstraße")], [[1.0, 0.0]])
        assert await found(store, "HAUPTSTRASSE hauptstraße") == ["Ada lives on the Hauptstraße"]


async def test_in_a_large_index_weightless_words_are_left_out(
    store: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keyword, "PRUNE_FROM_FACTS", 10)
    assert await found(store, "the kayak") == [CORPUS[2], CORPUS[0]]
    assert await store.ranking.keyword_ranking("the team meets", VIEWER, 5) == []
    monkeypatch.setattr(keyword, "PRUNE_FROM_FACTS", 1000)
    assert len(await store.ranking.keyword_ranking("the team meets", VIEWER, 5)) == 5


SMALL = [
    "Alice's email is alice@example.com",
    "Alice drinks green tea every morning",
    "The office is in Lyon",
]


@pytest.mark.parametrize(
    ("query", "wanted"),
    [("email", 0), ("tea", 1), ("office", 2), ("What is my email?", 0), ("Alice's email", 0)],
)
async def test_in_a_store_of_three_facts_a_distinctive_word_clears_the_floor(
    tmp_path: Path, query: str, wanted: int
) -> None:
    async with await open_sqlite(tmp_path / "memory.db") as store:
        facts = [fact(n, text) for n, text in enumerate(SMALL)]
        await store.facts.add_facts(facts, [[1.0, 0.0]] * 3)
        hits = await store.ranking.keyword_ranking(query, VIEWER, 5)
        assert hits[0].id == facts[wanted].id
        assert hits[0].score >= store.ranking.text_score_threshold
        # "alice" is in two of the three facts: alone, it says nothing.
        common = await store.ranking.keyword_ranking("alice", VIEWER, 5)
        assert all(h.score < store.ranking.text_score_threshold for h in common)


def _unique_word_score(indexed: int) -> float:
    """FTS5's score of a word in one of ``indexed`` facts, at average length, lifted."""
    idf = max(math.log((indexed - 0.5) / 1.5), FTS5_IDF_FLOOR)
    return idf * keyword.small_store_lift(indexed)


@given(st.integers(min_value=0, max_value=10**7))
def test_the_lift_only_ever_raises_and_leaves_stores_of_12_facts_and_more_alone(n: int) -> None:
    lift = keyword.small_store_lift(n)
    assert lift >= 1.0
    assert keyword.small_store_lift(n + 1) <= lift
    assert (lift == 1.0) == (n >= keyword.SMALL_STORE_FACTS)
    if 1 <= n < keyword.SMALL_STORE_FACTS:  # a word in one fact scores what it does at 12 facts
        assert _unique_word_score(n) == pytest.approx(
            keyword.UNIQUE_WORD_SCORE * keyword.TEXT_SCORE_THRESHOLD
        )
    if n >= 3:  # a word in half the facts or more never clears the floor (2 facts: all do)
        half = max(math.log((n - (n + 1) // 2 + 0.5) / ((n + 1) // 2 + 0.5)), 1e-6)
        assert half * lift < keyword.TEXT_SCORE_THRESHOLD
