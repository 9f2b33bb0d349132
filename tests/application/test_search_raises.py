"""search_facts raises the session-mates of its best hits and the facts said on a named date."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.tools.rendering import render_results
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.search import SearchMode
from eden_memory.application.service import MemoryService
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import AgentMemoryConfig, FactVisibility
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.stores import FactOrigin, Stores
from eden_memory.testing import memory_stores
from tests.application.faults import facts_replaced
from tests.application.stores import STORES, stores_of_kind
from tests.contract.store.world import WholeFacts, whole_facts

NOW = datetime(2026, 4, 1, 12, tzinfo=UTC)


@pytest.fixture(params=STORES)
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Stores]:
    made = await stores_of_kind(request.param, tmp_path)
    yield made
    await made.close()


async def _memory(
    stores: Stores, facts: Mapping[str, tuple[str | None, datetime]]
) -> MemoryService:
    return await _with(stores, facts, None)


async def _with(
    stores: Stores,
    facts: Mapping[str, tuple[str | None, datetime]],
    settings: MemorySettings | None,
) -> MemoryService:
    memory = MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW), settings)
    items = [
        FactInput(
            content=text,
            agent_id="nova",
            user_id="alice",
            formed_at=said,
            source_session_id=session,
        )
        for text, (session, said) in facts.items()
    ]
    await memory.admin.add_facts(items)
    return memory


TRIP = {
    "Alice flew to Lisbon and loved Lisbon": ("trip", NOW),
    "The hotel was noisy": ("trip", NOW),  # said in the same session as the Lisbon fact
    "The hotel was quiet": ("work", NOW),
    "Carol bought a green lamp": ("misc", NOW),
    "The garden needs water": ("misc", NOW),
    "Bob repaired the bike": ("misc", NOW),
    "Dana paints portraits": ("misc", NOW),
}


async def test_a_fact_said_beside_the_best_hit_ranks_above_its_equal_from_elsewhere(
    stores: Stores,
) -> None:
    memory = await _memory(stores, TRIP)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    found = await memory.search_facts(
        conv, ["Lisbon hotel"], mode=SearchMode.KEYWORD, thresholds=False, debug=True
    )
    order = [r.fact.content for r in found.results]
    assert order[:3] == [
        "Alice flew to Lisbon and loved Lisbon",
        "The hotel was noisy",
        "The hotel was quiet",
    ]
    assert found.debug is not None
    [query] = found.debug.queries
    scores = {r.fact.content: r for r in found.results}
    noisy, quiet = scores["The hotel was noisy"], scores["The hotel was quiet"]
    lisbon = scores["Alice flew to Lisbon and loved Lisbon"]
    assert noisy.keyword_score == pytest.approx(quiet.keyword_score)  # equal before the raise
    assert lisbon.keyword_score is not None
    # A share of the Lisbon fact's lead over the weakest candidate (a hotel fact): the raise
    # reads a retriever's own scale (BM25 here) as it reads fused scores.
    assert quiet.keyword_score is not None
    lead = lisbon.keyword_score - quiet.keyword_score
    assert query.session_bonus[str(noisy.fact.id)] == pytest.approx(0.3 * lead)
    assert str(quiet.fact.id) not in query.session_bonus  # alone in its session
    assert noisy.score == pytest.approx(quiet.score + 0.3 * lead)


async def test_without_the_session_weight_equal_facts_stay_equal(stores: Stores) -> None:
    off = MemorySettings(search=SearchSettings(session_weight=0.0))
    memory = await _with(stores, TRIP, off)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    found = await memory.search_facts(
        conv, ["Lisbon hotel"], mode=SearchMode.KEYWORD, thresholds=False, debug=True
    )
    scores = {r.fact.content: r.score for r in found.results}
    assert scores["The hotel was noisy"] == pytest.approx(scores["The hotel was quiet"])
    assert found.debug is not None
    assert found.debug.queries[0].session_bonus == {}


async def test_a_named_date_ranks_the_facts_said_that_day_first(stores: Stores) -> None:
    hikes = {
        "Alice went hiking in the Alps with Tom": (
            None,
            datetime(2026, 3, 3, 18, tzinfo=UTC),
        ),
        "Alice went hiking in the Vosges": (None, datetime(2026, 3, 20, 9, tzinfo=UTC)),
        # The weakest match: min-max scaling puts the last of a list at 0, which no factor raises.
        "Alice once went hiking near a lake in the rain with Bob, Carol, Dan and Eve": (
            None,
            datetime(2026, 3, 25, 9, tzinfo=UTC),
        ),
    }
    memory = await _memory(stores, hikes)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    # Keyword scores alone, every floor off: each store's BM25, whatever the store's size.
    plain = await memory.search_facts(
        conv, ["where did Alice go hiking"], mode=SearchMode.KEYWORD, thresholds=False
    )
    dated = await memory.search_facts(
        conv,
        ["where did Alice go hiking on 3 March 2026"],
        mode=SearchMode.KEYWORD,
        thresholds=False,
        debug=True,
    )
    assert plain.results[0].fact.content == "Alice went hiking in the Vosges"
    assert dated.results[0].fact.content.startswith("Alice went hiking in the Alps")
    assert dated.debug is not None
    [query] = dated.debug.queries
    assert query.time_named is not None
    assert query.time_named.day
    assert query.time_factor == 2.0
    alps = dated.results[0]
    assert alps.keyword_score is not None
    assert alps.score == pytest.approx(3.0 * alps.keyword_score)  # 1 + day_boost


async def test_the_tool_debug_lines_say_what_was_raised(stores: Stores) -> None:
    memory = await _memory(stores, TRIP)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    question = "Lisbon hotel on 1 April 2026"
    found = await memory.search_facts(
        conv, [question], mode=SearchMode.KEYWORD, thresholds=False, debug=True
    )
    text = render_results([question], found, NOW)
    assert f'"{question}" names a day: facts said then x3' in text
    noisy = next(r for r in found.results if r.fact.content == "The hotel was noisy")
    assert f"{noisy.fact.id}: relevance" in text
    line = text.split(f"{noisy.fact.id}: relevance")[1].splitlines()[0]
    assert f"{noisy.relevance:.4f} score {noisy.score:.4f} (session +" in line
    assert "  bm25: the keyword retriever's raw score: BM25, 0 and up, unbounded" in text
    assert "  relevance: 0-1, how likely the fact is about the query" in text


async def test_a_raised_hybrid_result_keeps_its_relevance_in_0_1_and_the_order(
    stores: Stores,
) -> None:
    memory = await _memory(stores, TRIP)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    found = await memory.search_facts(conv, ["Lisbon hotel"], thresholds=False)
    assert any(r.fact.content == "The hotel was noisy" for r in found.results)
    assert max(r.score for r in found.results) > 1.0  # raised past the fused score's 1
    for r in found.results:  # raised or not, relevance stays on its own scale
        assert r.relevance is not None
        assert 0.0 <= r.relevance <= 1.0
    assert [r.score for r in found.results] == sorted(
        (r.score for r in found.results), reverse=True
    )


class ReadCounting:
    """A fact store that remembers which ids were read as whole facts."""

    def __init__(self, inner: WholeFacts) -> None:
        self._inner = inner
        self.read: list[FactId] = []
        self.reads = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        self.read.extend(ids)
        self.reads += 1
        return await self._inner.get_facts(ids)

    async def fact_origins(
        self, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        self.reads += 1
        return await self._inner.fact_origins(ids, visibility)


async def test_the_raises_read_origins_and_only_the_results_are_read_whole() -> None:
    stores = memory_stores()
    counting = ReadCounting(whole_facts(stores))
    # A raise strong enough to reorder the top 2 of these few facts (the lead over the weakest
    # candidate is all a session-mate gives).
    settings = MemorySettings(search=SearchSettings(session_weight=1.0))
    memory = await _with(facts_replaced(stores, counting), TRIP, settings)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    counting.read.clear()
    found = await memory.search_facts(
        conv, ["Lisbon hotel garden"], 2, mode=SearchMode.KEYWORD, thresholds=False, debug=True
    )
    assert found.debug is not None
    candidates = found.debug.queries[0].fused
    assert len(candidates) > 2  # more candidates than results...
    assert found.debug.queries[0].session_bonus  # ...raised by their sessions...
    # ...read by origin; whole: the 2 that led before the raises (read beside the origins,
    # in the same wait), then the results a raise brought in.
    ranked = found.debug.queries[0]
    before = [i for i, _ in sorted(ranked.keyword, key=lambda h: -h[1])][:2]
    brought_in = [r.fact.id for r in found.results if r.fact.id not in before]
    assert brought_in  # the raise reordered them
    assert counting.read == [*before, *brought_in]
    assert len(candidates) > len(counting.read)
    counting.read.clear()
    counting.reads = 0
    found = await memory.search_facts(
        conv, ["Lisbon hotel garden"], 10, mode=SearchMode.KEYWORD, thresholds=False
    )
    assert 2 < len(found.results) <= 10  # every candidate may be returned: one whole read
    assert (counting.reads, len(counting.read)) == (1, len(found.results))
