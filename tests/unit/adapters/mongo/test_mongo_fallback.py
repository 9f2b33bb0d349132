"""Without Atlas Search the store notices once, warns once, and searches exactly."""

from __future__ import annotations

import logging

import pytest

from eden_memory.adapters.stores.mongo import SearchIndexNames
from eden_memory.adapters.stores.mongo.capabilities import SCALE_WARNING
from eden_memory.adapters.stores.mongo.errors import search_unsupported
from eden_memory.domain.errors import StoreError
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo.builders import (
    SPACE,
    U1,
    A,
    axis,
    fact,
    mongo_parts,
    mongomock_store,
)
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase, server_error

VIEWER = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))
NAMES = SearchIndexNames()
# What Atlas answers (code 8000, AtlasError) when it refuses a $vectorSearch on a paid tier.
ATLAS_NOT_ALLOWED = (
    "$vectorSearch is not allowed or the syntax is incorrect, see the Atlas documentation for "
    "more information"
)


def ids(ranking: list[Hit]) -> list[FactId]:
    return [r.id for r in ranking]


def scale_warnings(caplog: pytest.LogCaptureFixture) -> int:
    return sum(SCALE_WARNING in r.getMessage() for r in caplog.records)


async def test_mongomock_is_detected_once_and_warned_about_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = mongomock_store()
    tea, coffee = fact("Alice drinks green tea", user=U1), fact("Bob drinks coffee")
    await store.facts.add_facts([tea, coffee], [axis(0), axis(1)])
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            assert ids(await store.ranking.semantic_ranking(axis(0), VIEWER, 1, space=SPACE)) == [
                tea.id
            ]
            assert ids(await store.ranking.keyword_ranking("tea", VIEWER, 5)) == [tea.id]
    assert store.ranking.atlas.available is False
    assert scale_warnings(caplog) == 1
    assert store.ranking.text_score_threshold == 1.5


async def test_a_server_answering_command_not_supported_falls_back() -> None:
    atlas = Atlas()
    atlas.errors["$listSearchIndexes"] = server_error(
        115, "CommandNotSupported", "Search index commands are only supported with Atlas."
    )
    store = mongo_parts(FakeAtlasDatabase(atlas))
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    ranking = await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    assert ranking == [Hit(tea.id, 1.0)]
    assert store.ranking.atlas.available is False
    await store.ranking.keyword_ranking("tea", VIEWER, 5)
    assert atlas.pipelines == []


async def test_atlas_refusing_a_query_is_an_error_and_search_stays_on() -> None:
    atlas = Atlas()
    atlas.ready(NAMES.vector, NAMES.text)
    atlas.errors["$vectorSearch"] = server_error(8000, "AtlasError", ATLAS_NOT_ALLOWED)
    store = mongo_parts(FakeAtlasDatabase(atlas))
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    with pytest.raises(StoreError, match="code 8000"):
        await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    assert store.ranking.atlas.available is True
    del atlas.errors["$vectorSearch"]
    atlas.answers["$vectorSearch"] = [(tea.id, 1.0)]
    assert ids(await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)) == [tea.id]
    assert [next(iter(p[0])) for p in atlas.pipelines] == ["$vectorSearch", "$vectorSearch"]


NO_SEARCH = [
    (
        31082,
        "SearchNotEnabled",
        "Using Atlas Search Database Commands and the $listSearchIndexes "
        "aggregation stage requires additional configuration.",
    ),
    (6047401, "Location6047401", "$listSearchIndexes stage is only allowed on MongoDB Atlas"),
    (115, "CommandNotSupported", "Search index commands are only supported with Atlas."),
    (59, "CommandNotFound", "no such command: 'createSearchIndexes'"),
    (40324, "Location40324", "Unrecognized pipeline stage name: '$listSearchIndexes'"),
    (40324, "Location40324", "Unrecognized pipeline stage name: '$vectorSearch'"),
]
NOT_NO_SEARCH = [
    (8000, "AtlasError", ATLAS_NOT_ALLOWED),
    (59, "CommandNotFound", "no such command: 'frobnicate'"),
    (40324, "Location40324", "Unrecognized pipeline stage name: '$rankFusion'"),
    (2, "BadValue", "Unrecognized pipeline stage name: '$search' is not allowed"),
]


@pytest.mark.parametrize(("code", "name", "message"), NO_SEARCH)
def test_servers_without_atlas_search_are_known_by_their_codes(
    code: int, name: str, message: str
) -> None:
    assert search_unsupported(server_error(code, name, message))


@pytest.mark.parametrize(("code", "name", "message"), NOT_NO_SEARCH)
def test_other_refusals_never_switch_search_off(code: int, name: str, message: str) -> None:
    assert not search_unsupported(server_error(code, name, message))


async def test_atlas_indexes_still_building_are_bridged_by_the_exact_path() -> None:
    atlas = Atlas(queryable_after_lists=1)
    atlas.ready(NAMES.vector, NAMES.text)
    for index in atlas.indexes:  # created, not built yet: PENDING until the second listing
        index.update(status="PENDING", queryable=False, _served=None)
    store = mongo_parts(FakeAtlasDatabase(atlas))
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    assert ids(await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)) == [tea.id]
    assert atlas.pipelines == []  # not queryable yet: nothing sent to Atlas Search
    assert store.ranking.atlas.available is True
    store.ranking.atlas.next_probe = 0.0  # the probe interval has passed
    atlas.answers["$vectorSearch"] = [(tea.id, 1.0)]
    assert ids(await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)) == [tea.id]
    assert len(atlas.pipelines) == 1


async def test_a_text_index_narrows_keyword_candidates_without_changing_the_ranking() -> None:
    facts = [
        fact("The rocket launch deadline and budget were approved", user=U1),
        fact("The rocket design review was approved", user=U1),
        fact("Bob owns a red bicycle and a green kayak", user=U1),
    ]
    plain, indexed = mongomock_store(), mongo_parts(FakeAtlasDatabase(Atlas(text_index=True)))
    for store in (plain, indexed):
        await store.facts.add_facts(facts, [axis(n) for n in range(3)])
    query = "rocket launch deadline"
    expected = await plain.ranking.keyword_ranking(query, VIEWER, 5)
    found = await indexed.ranking.keyword_ranking(query, VIEWER, 5)
    assert expected  # the query matches: the comparison below means something
    assert ids(found) == ids(expected)
    assert indexed.ranking.text.available is True


async def test_the_text_index_is_asked_the_words_that_count_and_finds_their_forms() -> None:
    facts = [
        fact("Caroline attended an LGBTQ support group", user=U1),
        fact("Melanie signed up for a pottery class", user=U1),
        fact("The Who is her favourite band", user=U1),
    ]
    plain, atlas = mongomock_store(), Atlas(text_index=True)
    indexed = mongo_parts(FakeAtlasDatabase(atlas))
    for store in (plain, indexed):
        await store.facts.add_facts(facts, [axis(n) for n in range(3)])
    for query in ["When did Caroline attend the -support groups?", "who is it"]:
        expected = await plain.ranking.keyword_ranking(query, VIEWER, 5)
        assert ids(expected) == ids(await indexed.ranking.keyword_ranking(query, VIEWER, 5))
        assert expected
    # Stop words and syntax never reach $text; a query of stop words only scans instead.
    assert atlas.text_searches == ["caroline attend support groups"]
