"""search_facts: arguments, fusion, thresholds, access tracking and debug detail."""

from __future__ import annotations

from datetime import timedelta

import pytest

from eden_memory.application.conversation import Conversation
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.search import SearchMode
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ranking import Fusion
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from tests.application.story import Story, World, make_world

FACTS = {
    f"m{i}": [(text, "agent")]
    for i, text in enumerate(
        [
            "The Mars festival budget is 50000 dollars",
            "The Mars festival takes place in Lyon",
            "Bob's phone number is 555 0100",
            "The poster designer is Carla Ruiz",
        ]
    )
}


async def _world(settings: MemorySettings | None = None) -> tuple[World, Conversation]:
    world = make_world(Story(facts=FACTS), settings)
    conv = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FACTS))
    await world.memory.form_memories(conv)
    return world, conv


async def test_hybrid_search_finds_the_matching_facts_first() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, ["Mars festival budget"])
    assert found.results[0].fact.content == "The Mars festival budget is 50000 dollars"
    scores = [r.score for r in found.results]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 0.5 + 0.5 for s in scores)  # scaled scores, weighted 0.5 and 0.5


async def test_rrf_fusion_stays_available_with_the_seeds_floor() -> None:
    rrf = MemorySettings(
        search=SearchSettings(fusion=Fusion.RRF, semantic_weight=1.0, keyword_weight=1.0)
    )
    world, conv = await _world(rrf)
    found = await world.memory.search_facts(conv, ["Mars festival budget"], debug=True)
    assert found.results[0].fact.content == "The Mars festival budget is 50000 dollars"
    assert all(r.score >= 0.015 for r in found.results)
    assert found.debug is not None
    assert found.debug.fusion == "rrf k=60 1/1"


async def test_rrf_with_the_default_weights_keeps_hits_of_one_list() -> None:
    world, conv = await _world(MemorySettings(search=SearchSettings(fusion=Fusion.RRF)))
    found = await world.memory.search_facts(conv, ["Carla"], mode=SearchMode.HYBRID)
    assert [r.fact.content for r in found.results][:1] == ["The poster designer is Carla Ruiz"]


async def test_several_queries_merge_without_duplicates() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(
        conv, ["Mars festival", "festival Lyon", "Carla poster"]
    )
    ids = [r.fact.id for r in found.results]
    assert len(ids) == len(set(ids))
    assert {r.fact.content for r in found.results} >= {
        "The Mars festival takes place in Lyon",
        "The poster designer is Carla Ruiz",
    }


async def test_retrieved_facts_have_their_access_counted() -> None:
    world, conv = await _world()
    await world.memory.search_facts(conv, ["Bob phone number"])
    await world.memory.search_facts(conv, ["Bob phone number"])
    await world.memory.wait_for_background()  # counted off the caller's path
    facts = {f.content: f for f in await world.memory.admin.list_facts("nova")}
    bob = facts["Bob's phone number is 555 0100"]
    assert bob.access_count == 2
    assert bob.last_accessed_at == world.clock.now()
    assert facts["The poster designer is Carla Ruiz"].access_count == 0


async def test_debug_returns_per_stage_scores_and_timings() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, ["Mars festival budget"], debug=True)
    assert found.debug is not None
    [query] = found.debug.queries
    assert query.semantic
    assert query.keyword
    assert query.fused
    assert {"embed_queries", "retrieve_and_fuse"} <= set(found.debug.seconds)
    assert found.debug.fusion == "score 0.5/0.5"
    assert found.debug.thresholds == {"semantic": 0.65, "text": 0.0, "fused": 0.0}
    both = [h for h in query.fused if h.semantic_score is not None and h.keyword_score is not None]
    assert both  # each retriever's score beside the fused one
    best = max(h.semantic_score for h in both if h.semantic_score is not None)
    assert any(h.score >= 0.5 for h in both if h.semantic_score == best)


async def test_single_retriever_modes_and_thresholds_off() -> None:
    world, conv = await _world()
    semantic = await world.memory.search_facts(
        conv, ["festival"], mode=SearchMode.SEMANTIC, thresholds=False
    )
    keyword = await world.memory.search_facts(conv, ["festival"], mode=SearchMode.KEYWORD)
    assert all(r.keyword_score is None for r in semantic.results)
    assert len(semantic.results) == 4
    assert {r.fact.content for r in keyword.results} == {
        "The Mars festival budget is 50000 dollars",
        "The Mars festival takes place in Lyon",
    }


async def test_a_mode_named_as_a_string_runs_that_mode_and_a_misspelt_one_is_refused() -> None:
    """A plain "keyword" ran as hybrid before (the mode was compared by identity), and crashed
    with ``debug``."""
    world, conv = await _world()
    named = await world.memory.search_facts(conv, ["festival"], mode="keyword", debug=True)  # type: ignore[arg-type]
    assert named.debug is not None
    assert named.debug.mode == "keyword"
    assert all(r.semantic_score is None for r in named.results)
    with pytest.raises(InvalidInputError, match="mode must be one of"):
        await world.memory.search_facts(conv, ["festival"], mode="Keyword")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("queries", "top_k"),
    [
        ([], None),
        (["a", "b", "c", "d"], None),
        ([""], None),
        (["ok"], 0),
        (["ok"], 51),
        ("ok", None),
        (["x" * 1001], None),
    ],
)
async def test_bad_arguments_are_refused_clearly(queries: object, top_k: int | None) -> None:
    world, conv = await _world()
    with pytest.raises(InvalidInputError):
        await world.memory.search_facts(conv, queries, top_k)  # type: ignore[arg-type]


async def test_search_is_refused_when_neither_user_nor_agent_memory_is_on() -> None:
    world = make_world(Story())
    off = AgentMemoryConfig("nova", user_memory_enabled=False, agent_memory_enabled=False)
    conv = world.memory.conversation(off, "s1", ["alice"])
    assert not world.memory.search_offered(conv)
    with pytest.raises(InvalidInputError, match="not offered"):
        await world.memory.search_facts(conv, ["anything"])


async def test_a_query_naming_a_time_ranks_the_facts_said_then_first() -> None:
    world = make_world(Story())
    conv = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    now = world.clock.now()
    said = {
        "Alice went hiking in the Alps": now - timedelta(days=40),
        "Alice went hiking in the Vosges": now - timedelta(days=3),  # in last week
    }
    items = [
        FactInput(content=text, agent_id="nova", user_id="alice", formed_at=when)
        for text, when in said.items()
    ]
    await world.memory.admin.add_facts(items)
    plain = await world.memory.search_facts(conv, ["where did Alice go hiking"])
    recent = await world.memory.search_facts(conv, ["where did Alice go hiking last week"])
    assert {r.fact.content for r in plain.results} == set(said)
    assert recent.results[0].fact.content == "Alice went hiking in the Vosges"
    before = {r.fact.content: r.score for r in plain.results}
    assert recent.results[0].score == pytest.approx(
        1.25 * before["Alice went hiking in the Vosges"]
    )
