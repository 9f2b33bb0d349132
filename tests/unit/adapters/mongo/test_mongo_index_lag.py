"""Atlas's search index follows writes with a lag: facts written moments ago still count.

The fake Atlas below answers ``$vectorSearch`` from its scripted list only, as an index
that has not caught up with the latest writes would. The store merges that answer with an
exact comparison over the facts the server wrote within ``index_lag_seconds``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from eden_memory.adapters.stores.mongo import MongoStoreOptions, SearchIndexNames
from eden_memory.adapters.stores.mongo.documents import WRITTEN_AT
from eden_memory.adapters.stores.mongo.vectors import merged
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo.builders import SPACE, U1, A, MongoParts, axis, fact, mongo_parts
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase

VIEWER = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))
NAMES = SearchIndexNames()


def lagging_store(options: MongoStoreOptions | None = None) -> tuple[MongoParts, Atlas]:
    atlas = Atlas()
    atlas.ready(NAMES.vector, NAMES.text)
    return mongo_parts(FakeAtlasDatabase(atlas), options), atlas


async def test_a_fact_written_moments_ago_is_found_before_the_index_shows_it() -> None:
    store, atlas = lagging_store()
    old = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([old], [axis(1)])
    atlas.answers["$vectorSearch"] = [(old.id, 0.75)]  # the index knows only the old one
    new = fact("Alice likes green tea", user=U1)
    await store.facts.add_facts([new], [axis(0)])
    ranking = await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    assert [r.id for r in ranking] == [new.id, old.id]
    assert ranking[0].score == pytest.approx(1.0)
    assert len(atlas.pipelines) == 1  # Atlas was asked too


async def test_the_window_is_the_servers_write_time_not_the_conversations() -> None:
    store, atlas = lagging_store(MongoStoreOptions(index_lag_seconds=30))
    long_ago = fact("Alice likes green tea", user=U1, formed_at=datetime(2020, 1, 1, tzinfo=UTC))
    await store.facts.add_facts([long_ago], [axis(0)])
    atlas.answers["$vectorSearch"] = []
    found = await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    assert [r.id for r in found] == [long_ago.id]  # formed in 2020, written just now
    written = datetime.now(UTC) - timedelta(minutes=5)
    await store.ctx.facts.raw.update_one({"_id": long_ago.id}, {"$set": {WRITTEN_AT: written}})
    assert await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE) == []


async def test_the_merge_keeps_visibility_and_can_be_turned_off() -> None:
    store, atlas = lagging_store()
    other_user = fact("Bob likes green tea", user="user-2")
    await store.facts.add_facts([other_user], [axis(0)])
    atlas.answers["$vectorSearch"] = []
    assert await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE) == []
    off, atlas_off = lagging_store(MongoStoreOptions(index_lag_seconds=0))
    await off.facts.add_facts([fact("Alice likes green tea", user=U1)], [axis(0)])
    atlas_off.answers["$vectorSearch"] = []
    assert await off.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE) == []


async def test_stored_facts_read_back_without_the_write_time() -> None:
    store, _ = lagging_store()
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    raw = await store.ctx.facts.raw.find_one({"_id": tea.id})
    assert isinstance(raw[WRITTEN_AT], datetime)
    assert await store.facts.get_facts([tea.id]) == [tea]


def test_merged_rankings_keep_each_id_once_at_its_best_score() -> None:
    first = [("a", 0.9), ("b", 0.5)]
    second = [("b", 0.95), ("c", 0.1)]
    assert merged(first, second, 2) == [("b", 0.95), ("a", 0.9)]
    assert merged(first, [], 5) == first
