"""Re-embedding on Atlas: the old vector index keeps answering while the new one builds.

Atlas reports a rebuilt index ``queryable: true`` (status ``BUILDING``) with the new
``latestDefinition`` and serves the old one until the build is done; a ``$vectorSearch``
at the new dimension meanwhile fails with "vector field is indexed with 4 dimensions but
queried with 8". So setup waits for ``READY`` with the new definition, and the store
searches exactly until then.
"""

from __future__ import annotations

import pytest

from eden_memory.adapters.stores.mongo import SearchIndexNames, setup_indexes
from eden_memory.adapters.stores.mongo.indexes import vector_index
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo.builders import DIM, SPACE, U1, A, axis, fact, mongo_parts
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase

VIEWER = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))
NAMES = SearchIndexNames()
NEW = EmbeddingSpace("new-embedder", 8)
VECTOR = "memory2_facts.memory2_fact_vector"


def wide(i: int) -> list[float]:
    vector = [0.0] * NEW.dimension
    vector[i] = 1.0
    return vector


async def test_setup_waits_for_the_rebuilt_index_not_the_old_one_still_answering() -> None:
    atlas = Atlas(queryable_after_lists=2)
    database = FakeAtlasDatabase(atlas)
    assert (await setup_indexes(database, DIM, poll_seconds=0.0)).ready
    moved = await setup_indexes(database, 8, timeout_seconds=0.0, poll_seconds=0.0)
    [vector] = [i for i in atlas.indexes if i["name"] == NAMES.vector]
    assert (vector["status"], vector["queryable"]) == ("BUILDING", True)
    assert moved.updated == [VECTOR]
    assert moved.pending == [VECTOR]  # queryable, but with the old definition
    again = await setup_indexes(database, 8, poll_seconds=0.0)
    assert again.ready
    assert again.kept.count(VECTOR) == 1
    assert vector["status"] == "READY"


async def test_a_stale_index_is_not_ready() -> None:
    atlas = Atlas()
    atlas.ready(NAMES.vector, NAMES.text)
    atlas.stale()
    report = await setup_indexes(FakeAtlasDatabase(atlas), DIM, timeout_seconds=0.0)
    assert set(report.pending) == {VECTOR, "memory2_facts.memory2_fact_text"}
    store = mongo_parts(FakeAtlasDatabase(atlas))
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    assert [
        r.id for r in await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    ] == [tea.id]
    assert atlas.pipelines == []


async def test_re_embedded_facts_are_found_exactly_while_atlas_rebuilds_then_by_atlas() -> None:
    atlas = Atlas()
    atlas.ready(NAMES.vector, NAMES.text)
    database = FakeAtlasDatabase(atlas)
    store = mongo_parts(database)
    tea, coffee = fact("Alice drinks green tea", user=U1), fact("Bob drinks coffee")
    await store.facts.add_facts([tea, coffee], [axis(0), axis(1)])
    atlas.answers["$vectorSearch"] = [(tea.id, 1.0)]
    assert [
        r.id for r in await store.ranking.semantic_ranking(axis(0), VIEWER, 1, space=SPACE)
    ] == [tea.id]
    await store.facts.reembed_facts(NEW, {tea.id: wide(5), coffee.id: wide(6)})
    atlas.queryable_after_lists = atlas.lists + 1_000  # the rebuild takes a while
    await setup_indexes(database, NEW.dimension, wait=False)
    sent = len(atlas.pipelines)
    ranking = await store.ranking.semantic_ranking(wide(6), VIEWER, 1, space=NEW)
    assert [r.id for r in ranking] == [coffee.id]  # exact: the old index cannot answer
    assert ranking[0].score == pytest.approx(1.0)
    assert len(atlas.pipelines) == sent  # nothing sent that Atlas would refuse
    atlas.finish_builds()  # READY with the new definition
    store.ranking.atlas.next_probe = 0.0
    atlas.answers["$vectorSearch"] = [(coffee.id, 1.0)]
    assert [r.id for r in await store.ranking.semantic_ranking(wide(6), VIEWER, 1, space=NEW)] == [
        coffee.id
    ]
    assert atlas.pipelines[-1][0]["$vectorSearch"]["queryVector"] == wide(6)


async def test_an_index_rebuilt_behind_the_stores_back_serves_that_search_exactly() -> None:
    atlas = Atlas()
    atlas.ready(NAMES.vector, NAMES.text)
    store = mongo_parts(FakeAtlasDatabase(atlas))
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    atlas.answers["$vectorSearch"] = [(tea.id, 1.0)]
    await store.ranking.semantic_ranking(axis(0), VIEWER, 1, space=SPACE)  # listed: READY at 4
    [vector] = [i for i in atlas.indexes if i["name"] == NAMES.vector]
    vector["_served"] = vector_index(1536, MongoStoreOptions()).definition  # moved meanwhile
    ranking = await store.ranking.semantic_ranking(axis(0), VIEWER, 1, space=SPACE)
    assert [r.id for r in ranking] == [tea.id]
    assert store.ranking.atlas.listed == []  # asked again at the next search
    assert store.ranking.atlas.available is True
