"""Atlas shedding load or losing its search process for a moment: retried, then unavailable.

The errors are built as Atlas sends them: an overload rejection (489, labelled
``SystemOverloadedError``) and mongod's lost connection to mongot (``HostUnreachable``).
"""

from __future__ import annotations

import pytest
from pymongo.errors import OperationFailure

from eden_memory.adapters.stores.mongo import MongoStoreOptions, SearchIndexNames
from eden_memory.adapters.stores.mongo.errors import is_transient, translate
from eden_memory.domain.errors import StoreUnavailableError
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo.builders import SPACE, U1, A, MongoParts, axis, fact, mongo_parts
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase, server_error

VIEWER = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))
NAMES = SearchIndexNames()


def overloaded() -> OperationFailure:
    reply = {
        "ok": 0.0,
        "errmsg": "Operation rejected because the server is overloaded",
        "code": 489,
        "codeName": "SystemOverloaded",
        "errorLabels": ["SystemOverloadedError", "RetryableError"],
    }
    return OperationFailure(str(reply["errmsg"]), 489, reply)


def search_process_lost() -> OperationFailure:
    return server_error(
        6,
        "HostUnreachable",
        "PlanExecutor error during aggregation :: caused by :: Error connecting to "
        "localhost:28000 (127.0.0.1:28000) :: caused by :: Connection refused",
    )


async def atlas_store(atlas: Atlas, **options: object) -> MongoParts:
    atlas.ready(NAMES.vector, NAMES.text)
    return mongo_parts(FakeAtlasDatabase(atlas), MongoStoreOptions(**options))  # type: ignore[arg-type]


@pytest.mark.parametrize("error", [overloaded(), search_process_lost()])
def test_overload_and_a_lost_search_process_are_transient(error: OperationFailure) -> None:
    assert is_transient(error)
    assert isinstance(translate(error, "search"), StoreUnavailableError)


def test_a_refused_query_is_not_transient() -> None:
    refused = server_error(8000, "AtlasError", "$vectorSearch is not allowed")
    assert not is_transient(refused)
    assert not isinstance(translate(refused, "search"), StoreUnavailableError)


async def test_searches_are_retried_past_a_moment_of_overload() -> None:
    atlas = Atlas()
    store = await atlas_store(atlas)
    tea = fact("Alice drinks green tea", user=U1)
    await store.facts.add_facts([tea], [axis(0)])
    atlas.answers["$vectorSearch"] = [(tea.id, 1.0)]
    atlas.answers["$search"] = [(tea.id, 2.0)]
    atlas.flaky["$vectorSearch"] = [overloaded(), search_process_lost()]
    atlas.flaky["$search"] = [search_process_lost()]
    assert [
        r.id for r in await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    ] == [tea.id]
    assert [r.id for r in await store.ranking.keyword_ranking("tea", VIEWER, 5)] == [tea.id]
    assert [next(iter(p[0])) for p in atlas.pipelines].count("$vectorSearch") == 3


async def test_overload_that_lasts_is_unavailable_and_search_stays_on() -> None:
    atlas = Atlas()
    store = await atlas_store(atlas, retries=1)
    await store.facts.add_facts([fact("Alice drinks green tea", user=U1)], [axis(0)])
    atlas.errors["$vectorSearch"] = overloaded()
    with pytest.raises(StoreUnavailableError):
        await store.ranking.semantic_ranking(axis(0), VIEWER, 5, space=SPACE)
    assert len(atlas.pipelines) == 2
    assert store.ranking.atlas.available is True


async def test_a_write_that_would_count_twice_is_not_retried_on_overload() -> None:
    store = await atlas_store(Atlas())
    calls: list[int] = []

    async def increment() -> None:
        calls.append(1)
        raise overloaded()

    with pytest.raises(StoreUnavailableError):
        await store.ctx.facts.call("update", increment, retry=False)
    assert calls == [1]
