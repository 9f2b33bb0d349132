"""The MongoDB store against real Atlas: index setup and a hybrid search round trip.

Runs only when ``EDEN_MEMORY_MONGODB_URI`` points at an Atlas cluster (M0 is enough) and
``EDEN_MEMORY_INTEGRATION=1`` lets the suite leave this machine. Every test works in a
database of its own and drops it afterwards. Atlas builds search indexes and indexes new
documents asynchronously, so the tests wait for both.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from pymongo import AsyncMongoClient

from eden_memory.adapters.stores.mongo import setup_indexes
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.network_guard import FLAG, integration_enabled
from tests.unit.adapters.mongo.builders import mongo_parts

URI = os.environ.get("EDEN_MEMORY_MONGODB_URI", "")
DIMENSION = 8
SPACE = EmbeddingSpace("integration-embedder", DIMENSION)
T0 = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
A, U1, U2 = AgentId("agent-a"), UserId("user-1"), UserId("user-2")

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not URI, reason="EDEN_MEMORY_MONGODB_URI is not set (no Atlas cluster)"),
    pytest.mark.skipif(not integration_enabled(), reason=f"set {FLAG}=1 to reach Atlas"),
]


@pytest.fixture
async def database() -> AsyncIterator[Any]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(URI)
    name = f"eden_it_{uuid.uuid4().hex[:12]}"
    try:
        yield client[name]
    finally:
        await client.drop_database(name)
        await client.close()


def axis(i: int) -> list[float]:
    vector = [0.0] * DIMENSION
    vector[i] = 1.0
    return vector


def fact(content: str, user: UserId | None = None) -> Fact:
    return Fact(
        id=FactId(f"fact-{uuid.uuid4().hex}"),
        content=content,
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=A,
        user_id=user,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model=SPACE.model,
        embedding_dim=SPACE.dimension,
    )


async def eventually(
    search: Callable[[], Awaitable[list[Hit]]], expected: list[str], seconds: float = 120.0
) -> list[Hit]:
    """Atlas Search sees new documents after a short delay: ask until it does."""
    deadline = time.monotonic() + seconds
    while True:
        ranking = await search()
        if [r.id for r in ranking] == expected or time.monotonic() > deadline:
            return ranking
        await asyncio.sleep(2.0)


async def test_index_setup_creates_everything_waits_and_is_idempotent(database: Any) -> None:
    report = await setup_indexes(database, DIMENSION, timeout_seconds=900.0)
    assert report.ready, report.lines()
    assert {"memory2_facts.memory2_fact_vector", "memory2_facts.memory2_fact_text"} <= set(
        report.created
    )
    again = await setup_indexes(database, DIMENSION, timeout_seconds=900.0)
    assert not again.created
    assert not again.updated


async def test_a_search_round_trip_on_atlas(database: Any) -> None:
    store = mongo_parts(database)
    report = await setup_indexes(database, DIMENSION, timeout_seconds=900.0)
    assert report.ready, report.lines()
    tea, coffee = fact("Alice drinks green tea every morning", U1), fact("The office has coffee")
    hidden = fact("Bob drinks green tea too", U2)
    await store.facts.add_facts([tea, coffee, hidden], [axis(0), axis(1), axis(0)])
    viewer = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))

    semantic = await eventually(
        lambda: store.ranking.semantic_ranking(axis(0), viewer, 5, space=SPACE), [tea.id, coffee.id]
    )
    assert [r.id for r in semantic] == [tea.id, coffee.id]
    assert semantic[0].score == pytest.approx(1.0, abs=1e-3)
    assert semantic[1].score == pytest.approx(0.0, abs=1e-3)
    assert store.ranking.atlas.ready  # answered by $vectorSearch, not by the fallback

    keyword = await eventually(
        lambda: store.ranking.keyword_ranking("gren tea", viewer, 5), [tea.id]
    )
    assert [r.id for r in keyword] == [tea.id]  # fuzzy: "gren" finds "green"
    assert await store.facts.get_facts([r.id for r in keyword]) == [tea]
    assert hidden.id not in {r.id for r in [*semantic, *keyword]}


async def test_re_embedding_searches_exactly_while_atlas_rebuilds_then_by_atlas(
    database: Any,
) -> None:
    store = mongo_parts(database)
    assert (await setup_indexes(database, DIMENSION, timeout_seconds=900.0)).ready
    tea, coffee = fact("Alice drinks green tea", U1), fact("The office has coffee")
    await store.facts.add_facts([tea, coffee], [axis(0), axis(1)])
    viewer = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))
    await eventually(
        lambda: store.ranking.semantic_ranking(axis(0), viewer, 1, space=SPACE), [tea.id]
    )
    wide = EmbeddingSpace("integration-embedder-2", 2 * DIMENSION)

    def wide_axis(i: int) -> list[float]:
        vector = [0.0] * wide.dimension
        vector[i] = 1.0
        return vector

    await store.facts.reembed_facts(wide, {tea.id: wide_axis(9), coffee.id: wide_axis(10)})
    moved = await setup_indexes(database, wide.dimension, wait=False)
    assert moved.updated == ["memory2_facts.memory2_fact_vector"]
    # Atlas still serves the 8-dimension index: the store searches exactly meanwhile.
    during = await store.ranking.semantic_ranking(wide_axis(10), viewer, 1, space=wide)
    assert [r.id for r in during] == [coffee.id]
    assert (await setup_indexes(database, wide.dimension, timeout_seconds=900.0)).ready
    store.ranking.atlas.next_probe = 0.0
    after = await store.ranking.semantic_ranking(wide_axis(9), viewer, 1, space=wide)
    assert [r.id for r in after] == [tea.id]
    assert store.ranking.atlas.serves(wide.dimension)  # READY with the 16-dimension definition


async def test_a_fact_written_moments_ago_is_a_dedup_candidate_at_once(database: Any) -> None:
    store = mongo_parts(database)
    assert (await setup_indexes(database, DIMENSION, timeout_seconds=900.0)).ready
    viewer = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))
    first = fact("Alice drinks green tea every morning", U1)
    await store.facts.add_facts([first], [axis(0)])
    # No waiting for Atlas's index: what dedup asks right after the first formation.
    candidates = await store.ranking.semantic_ranking(axis(0), viewer, 5, space=SPACE)
    assert [r.id for r in candidates] == [first.id]
    assert candidates[0].score == pytest.approx(1.0, abs=1e-3)
    assert store.ranking.atlas.ready  # Atlas answered too; the recent facts were merged in
