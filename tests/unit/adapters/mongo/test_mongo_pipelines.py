"""Golden tests: the exact pipelines the store sends to Atlas, and what it makes of answers."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pymongo.errors import OperationFailure

from eden_memory.adapters.stores.mongo import MongoStoreOptions, pipelines
from eden_memory.adapters.stores.mongo.codec import IdCodec
from eden_memory.adapters.stores.mongo.options import IdMode, SearchIndexNames
from eden_memory.adapters.stores.mongo.visibility import search_clauses, visible_active
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo.builders import (
    MODEL,
    SPACE,
    U1,
    A,
    MongoParts,
    axis,
    fact,
    mongo_parts,
)
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase

Doc = dict[str, Any]
BOTH = frozenset({Scope.AGENT, Scope.USER})
VISIBLE = FactVisibility(A, U1, BOTH)
IDS = IdCodec(IdMode.STRING)

VISIBLE_FILTER: Doc = {
    "$and": [
        {
            "$and": [
                {"agent_id": {"$eq": "agent-a"}},
                {
                    "$or": [
                        {"scope": {"$eq": "agent"}},
                        {"$and": [{"scope": {"$eq": "user"}}, {"user_id": {"$eq": "user-1"}}]},
                    ]
                },
            ]
        },
        {"status": {"$eq": "active"}},
        {"embedding_model": {"$eq": MODEL}},
    ]
}
CLAUSES: list[Doc] = [
    {"equals": {"path": "agent_id", "value": "agent-a"}},
    {"equals": {"path": "status", "value": "active"}},
    {
        "compound": {
            "should": [
                {"equals": {"path": "scope", "value": "agent"}},
                {
                    "compound": {
                        "filter": [
                            {"equals": {"path": "scope", "value": "user"}},
                            {"equals": {"path": "user_id", "value": "user-1"}},
                        ]
                    }
                },
            ],
            "minimumShouldMatch": 1,
        }
    },
]
VECTOR_GOLDEN: list[Doc] = [
    {
        "$vectorSearch": {
            "index": "memory2_fact_vector",
            "path": "embedding",
            "queryVector": [1.0, 0.0, 0.0, 0.0],
            "numCandidates": 200,
            "limit": 10,
            "filter": VISIBLE_FILTER,
        }
    },
    {"$project": {"_id": 1, "_score": {"$meta": "vectorSearchScore"}}},
]
SEARCH_STAGE: Doc = {
    "$search": {
        "index": "memory2_fact_text",
        "compound": {
            "filter": CLAUSES,
            "must": [{"text": {"query": "green tea", "path": "content", "fuzzy": {"maxEdits": 1}}}],
        },
    }
}
TEXT_GOLDEN: list[Doc] = [
    SEARCH_STAGE,
    {"$limit": 10},
    {"$project": {"_id": 1, "_score": {"$meta": "searchScore"}}},
]


def test_the_vector_search_pipeline_filters_inside_the_stage() -> None:
    found = visible_active(VISIBLE, IDS, MODEL)
    assert pipelines.vector_search("memory2_fact_vector", axis(0), found, 10, 200) == VECTOR_GOLDEN


def test_the_text_search_pipeline_filters_in_compound_and_matches_fuzzily() -> None:
    clauses = search_clauses(VISIBLE, IDS)
    assert pipelines.text_search("memory2_fact_text", "green tea", clauses, 10) == TEXT_GOLDEN


def test_no_pipeline_filters_after_its_search_stage() -> None:
    for golden in (VECTOR_GOLDEN, TEXT_GOLDEN):
        assert all("$match" not in stage for stage in golden)


def test_every_pipeline_ships_ids_and_scores_only() -> None:
    for golden in (VECTOR_GOLDEN, TEXT_GOLDEN):
        assert set(golden[-1]["$project"]) == {"_id", "_score"}
        assert sum("$project" in stage for stage in golden) == 1


@pytest.mark.parametrize(
    ("limit", "expected"),
    [(1, 100), (5, 100), (10, 200), (400, 8000), (600, 10000), (10_000, 10000), (25_000, 10000)],
)
def test_num_candidates_grows_with_the_limit_up_to_the_atlas_ceiling(
    limit: int, expected: int
) -> None:
    assert MongoStoreOptions().num_candidates(limit) == expected


def test_atlas_cosine_scores_are_turned_back_into_cosine() -> None:
    assert pipelines.cosine_from_atlas(1.0) == 1.0
    assert pipelines.cosine_from_atlas(0.9) == pytest.approx(0.8)
    assert pipelines.cosine_from_atlas(0.5) == 0.0


async def _atlas_store(options: MongoStoreOptions | None = None) -> tuple[MongoParts, Atlas]:
    atlas = Atlas()
    names = SearchIndexNames()
    atlas.ready(names.vector, names.text)
    return mongo_parts(FakeAtlasDatabase(atlas), options), atlas


async def test_the_store_sends_the_golden_vector_pipeline_and_reports_cosine() -> None:
    store, atlas = await _atlas_store(MongoStoreOptions(index_lag_seconds=0))  # Atlas alone
    near = fact("near", user=U1)
    await store.facts.add_facts([near], [axis(0)])
    atlas.answers["$vectorSearch"] = [(near.id, 0.9)]
    ranking = await store.ranking.semantic_ranking(axis(0), VISIBLE, 10, space=SPACE)
    assert atlas.pipelines == [VECTOR_GOLDEN]
    assert [r.id for r in ranking] == [near.id]
    assert ranking[0].score == pytest.approx(0.8)


async def test_the_store_sends_the_golden_text_pipeline_and_keeps_search_scores() -> None:
    store, atlas = await _atlas_store()
    tea = fact("Alice drinks green tea", user=U1)
    others = [fact(f"Alice visited city number {i}", user=U1) for i in range(29)]
    await store.facts.add_facts([tea, *others], [axis(0)] * 30)
    atlas.answers["$search"] = [(tea.id, 2.5)]
    ranking = await store.ranking.keyword_ranking("green tea", VISIBLE, 10)
    assert atlas.pipelines == [TEXT_GOLDEN]
    assert ranking == [Hit(tea.id, 2.5)]  # 30 facts: Atlas's idf is the floor's own scale
    assert store.ranking.text_score_threshold == 1.5


@pytest.mark.parametrize("size", [1, 3, 5])
async def test_in_a_young_collection_a_word_in_one_fact_clears_the_floor(size: int) -> None:
    store, atlas = await _atlas_store()
    facts = [fact(f"Alice note {i}", user=U1) for i in range(size)]
    await store.facts.add_facts(facts, [axis(0)] * size)
    # What Lucene's BM25 gives a word in one of ``size`` documents, at average length.
    unique = math.log(1 + (size - 0.5) / 1.5)
    common = math.log(1 + 0.5 / (size + 0.5))  # a word in every document
    atlas.answers["$search"] = [(facts[0].id, unique), (facts[-1].id, common)]
    ranking = await store.ranking.keyword_ranking("note", VISIBLE, 10)
    floor = store.ranking.text_score_threshold
    assert ranking[0].score == pytest.approx(2 * floor)
    assert unique < floor  # what Atlas answered would have been dropped
    if size > 1:
        assert ranking[1].score < floor  # a word in every fact still does not count


async def test_the_collection_size_is_read_once_a_minute() -> None:
    store, atlas = await _atlas_store()
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    atlas.answers["$search"] = [(tea.id, 1.0)]
    first = await store.ranking.keyword_ranking("tea", VISIBLE, 10)
    more = [fact(f"Alice visited city number {i}", user=U1) for i in range(40)]
    await store.facts.add_facts(more, [axis(0)] * 40)
    assert await store.ranking.keyword_ranking("tea", VISIBLE, 10) == first
    store.ranking._size = None  # the minute has passed
    assert await store.ranking.keyword_ranking("tea", VISIBLE, 10) == [Hit(tea.id, 1.0)]


def test_a_larger_max_num_candidates_still_stays_within_atlas_s_ceiling() -> None:
    options = MongoStoreOptions(max_num_candidates=50_000)
    assert options.num_candidates(5_000) == 10_000
    assert options.vector_limit(12_000) == 10_000


async def test_a_limit_past_the_ceiling_is_asked_as_the_ceiling_and_atlas_accepts_it() -> None:
    store, atlas = await _atlas_store()
    near = fact("near", user=U1)
    await store.facts.add_facts([near], [axis(0)])
    atlas.answers["$vectorSearch"] = [(near.id, 0.9)]
    ranking = await store.ranking.semantic_ranking(axis(0), VISIBLE, 25_000, space=SPACE)
    assert [r.id for r in ranking] == [near.id]
    sent = atlas.pipelines[0][0]["$vectorSearch"]
    assert (sent["numCandidates"], sent["limit"]) == (10_000, 10_000)


async def test_the_fake_atlas_refuses_what_atlas_refuses() -> None:
    store, _ = await _atlas_store()
    await store.facts.add_facts([fact("near", user=U1)], [axis(0)])
    found = visible_active(VISIBLE, IDS, MODEL)
    too_many = pipelines.vector_search("memory2_fact_vector", axis(0), found, 20, 20_000)
    with pytest.raises(OperationFailure, match="numCandidates"):
        await store.ctx.driver.aggregate(store.ctx.facts.raw, too_many)


async def test_exact_vector_search_sends_exact_true_and_no_candidates() -> None:
    store, atlas = await _atlas_store(MongoStoreOptions(exact_vector_search=True))
    near = fact("near", user=U1)
    await store.facts.add_facts([near], [axis(0)])
    atlas.answers["$vectorSearch"] = [(near.id, 1.0)]
    assert [
        r.id for r in await store.ranking.semantic_ranking(axis(0), VISIBLE, 10, space=SPACE)
    ] == [near.id]
    sent = atlas.pipelines[0][0]["$vectorSearch"]
    assert sent["exact"] is True
    assert "numCandidates" not in sent
    assert list(sent) == ["index", "path", "queryVector", "exact", "limit", "filter"]
