"""A search that finds nothing relevant returns nothing; relevance is on a fixed scale."""

from __future__ import annotations

from eden_memory.application.search import SearchMode
from eden_memory.domain.calibration import RECORDED
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.relevance import keyword_relevance
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.domain.vectors import cosine
from tests.application.test_search import _world

NEVER = MemorySettings(search=SearchSettings(abstain_below=0.0))


async def test_a_question_about_nothing_stored_finds_nothing() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, ["Which dentist does Carla see?"], debug=True)
    assert found.results == []
    assert found.debug is not None
    assert found.debug.abstained > 0  # hits were found, and held back
    assert found.debug.best_relevance is not None
    assert found.debug.best_relevance < 0.5


async def test_never_abstaining_returns_those_hits() -> None:
    world, conv = await _world(NEVER)
    found = await world.memory.search_facts(conv, ["Which dentist does Carla see?"], debug=True)
    assert found.results
    assert found.debug is not None
    assert found.debug.abstained == 0
    assert all(r.relevance is not None and r.relevance < 0.5 for r in found.results)


async def test_without_thresholds_nothing_is_held_back() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(
        conv, ["Which dentist does Carla see?"], thresholds=False
    )
    assert found.results


async def test_a_question_the_store_answers_is_answered_with_high_relevance() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(conv, ["Mars festival budget"])
    best = found.results[0]
    assert best.fact.content == "The Mars festival budget is 50000 dollars"
    assert best.relevance is not None
    assert best.relevance >= 0.5


async def test_a_hit_s_relevance_does_not_depend_on_the_other_hits() -> None:
    """Calibrated, not relative: adding a closer fact leaves a hit's semantic relevance as it
    was (keyword coverage moves with the store's word statistics, as BM25 does)."""
    world, conv = await _world(NEVER)
    query = ["Mars festival in Lyon"]

    async def relevances() -> dict[str, float | None]:
        found = await world.memory.search_facts(conv, query, mode=SearchMode.SEMANTIC)
        return {r.fact.content: r.relevance for r in found.results}

    before = await relevances()
    added = await world.memory.admin.add_facts(
        [
            {
                "content": "The Mars festival in Lyon opens in June",
                "agent_id": "nova",
                "scope": "agent",
                "formed_at": world.clock.now().isoformat(),
            }
        ]
    )
    assert len(added.added) == 1
    after = await relevances()
    assert "The Mars festival in Lyon opens in June" in after
    assert before
    for content, relevance in before.items():
        assert after[content] == relevance


async def test_keyword_only_hits_are_placed_on_the_semantic_scale_too() -> None:
    """A hybrid hit only the keywords found is read with its own vector, so its relevance is
    the stronger of its cosine's and its keyword coverage's."""
    world, conv = await _world(NEVER)
    found = await world.memory.search_facts(conv, ["Carla phone"], debug=True)
    assert found.debug is not None
    fused = {h.id: h for h in found.debug.queries[0].fused}
    scale = RECORDED[world.embedder.space.model].scale
    (query,) = (await world.embedder.embed(["Carla phone"], TextRole.QUERY)).vectors
    stored = await world.stores.facts.get_vectors([r.fact.id for r in found.results])
    checked = 0
    for r in found.results:
        hit = fused[r.fact.id]
        if hit.semantic_score is not None:
            continue
        checked += 1
        assert hit.keyword_coverage is not None
        cos = scale.relevance(cosine(query, stored[r.fact.id]))
        assert r.relevance == max(cos, keyword_relevance(hit.keyword_coverage))
    assert checked  # the search had keyword-only hits


async def test_keyword_mode_abstains_on_coverage() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(
        conv, ["Carla dentist appointment"], mode=SearchMode.KEYWORD, debug=True
    )
    assert found.results == []  # "Carla" matched, the rest of the question is not stored
    answered = await world.memory.search_facts(
        conv, ["poster designer Carla Ruiz"], mode=SearchMode.KEYWORD
    )
    assert answered.results[0].fact.content == "The poster designer is Carla Ruiz"
    assert answered.results[0].relevance == 1.0
