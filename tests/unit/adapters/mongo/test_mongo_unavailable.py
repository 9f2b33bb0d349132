"""Connection loss and timeouts surface as ``StoreUnavailableError``, never as pymongo errors."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import pytest
from pymongo import AsyncMongoClient
from pymongo.errors import AutoReconnect, PyMongoError, ServerSelectionTimeoutError

from eden_memory.adapters.stores.mongo import setup_indexes
from eden_memory.adapters.stores.mongo.compat import Driver
from eden_memory.adapters.stores.mongo.gateway import Gateway
from eden_memory.domain.errors import StoreUnavailableError
from eden_memory.domain.ids import FactId
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo import wire_server
from tests.unit.adapters.mongo.builders import SPACE, T0, A, axis, fact, mongo_parts
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase

Client = AsyncMongoClient[dict[str, object]]


def closed_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def nowhere() -> AsyncIterator[Client]:
    uri = f"mongodb://127.0.0.1:{closed_port()}/?serverSelectionTimeoutMS=150&connectTimeoutMS=150"
    client: Client = AsyncMongoClient(uri)
    yield client
    await client.close()


async def test_reads_and_writes_against_a_closed_port_are_unavailable(nowhere: Client) -> None:
    store = mongo_parts(nowhere["eden"])
    viewer = FactVisibility(A, None, frozenset({Scope.AGENT}))
    for call in (
        store.facts.get_facts([FactId("fact-1")]),
        store.facts.add_facts([fact("Alice likes tea")], [axis(0)]),
        store.ranking.semantic_ranking(axis(0), viewer, 5, space=SPACE),
        store.ranking.keyword_ranking("tea", viewer, 5),
        store.facts.recent_facts(viewer, T0, 5),
    ):
        with pytest.raises(StoreUnavailableError) as raised:
            await call
        assert not isinstance(raised.value, PyMongoError)
        assert isinstance(raised.value.__cause__, PyMongoError)


async def test_index_setup_against_a_closed_port_is_unavailable(nowhere: Client) -> None:
    with pytest.raises(StoreUnavailableError):
        await setup_indexes(nowhere["eden"], 8)


async def test_a_server_that_goes_away_mid_session_is_unavailable() -> None:
    with wire_server.wire_server() as uri:
        client: Client = AsyncMongoClient(uri.replace("5000", "300"))
        store = mongo_parts(client["eden"])
        kept = fact("Alice likes tea")
        await store.facts.add_facts([kept], [axis(0)])
        assert await store.facts.get_facts([kept.id]) == [kept]
    try:
        with pytest.raises(StoreUnavailableError):
            await store.facts.get_facts([kept.id])
    finally:
        await client.close()


async def test_transient_errors_are_retried_where_safe() -> None:
    gateway = Gateway(Driver(FakeAtlasDatabase(Atlas())), "facts", retries=2, ready=_ready)
    attempts: list[int] = []

    async def flaky() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise AutoReconnect("connection reset")
        return "done"

    assert await gateway.call("find", flaky) == "done"
    assert len(attempts) == 3


async def test_writes_that_would_count_twice_are_not_retried() -> None:
    gateway = Gateway(Driver(FakeAtlasDatabase(Atlas())), "facts", retries=2, ready=_ready)
    attempts: list[int] = []

    async def increment() -> None:
        attempts.append(1)
        raise AutoReconnect("connection reset")

    with pytest.raises(StoreUnavailableError):
        await gateway.call("update", increment, retry=False)
    assert len(attempts) == 1


async def test_a_server_selection_timeout_is_not_retried() -> None:
    gateway = Gateway(Driver(FakeAtlasDatabase(Atlas())), "facts", retries=2, ready=_ready)
    attempts: list[int] = []

    async def unreachable() -> None:
        attempts.append(1)
        raise ServerSelectionTimeoutError("no servers found")

    with pytest.raises(StoreUnavailableError):
        await gateway.call("find", unreachable)
    assert len(attempts) == 1


async def _ready() -> None:
    return None
