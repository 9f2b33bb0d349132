"""One face for PyMongo's async API and Motor: the calls whose awaiting differs."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient
from pymongo import AsyncMongoClient

from eden_memory.adapters.stores.mongo.compat import Driver
from eden_memory.domain.ids import SessionId
from tests.unit.adapters.mongo.builders import T0, A, axis, fact, mongo_parts, mongomock_store


async def _exercise(driver: Driver) -> None:
    collection = driver.collection("things")
    await collection.insert_one({"_id": "a", "n": 1})
    await collection.create_index([("n", 1)], name="by_n")
    assert await driver.aggregate(collection, [{"$match": {"n": 1}}]) == [{"_id": "a", "n": 1}]
    assert "by_n" in {i["name"] for i in await driver.list_indexes(collection)}


async def test_pymongo_async_is_recognised_and_awaited(wire_uri: str) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(wire_uri)
    try:
        driver = Driver(client[f"eden_{uuid.uuid4().hex}"])
        assert driver.native
        await _exercise(driver)
        async with driver.session() as session:
            assert session is not None
    finally:
        await client.close()


async def test_motor_is_recognised_and_not_awaited_where_it_returns_cursors() -> None:
    driver = Driver(AsyncMongoMockClient()["eden"])
    assert not driver.native
    await _exercise(driver)
    with pytest.raises(NotImplementedError):  # mongomock has no sessions
        async with driver.session():
            pass
    await driver.close()


async def test_the_store_closes_nothing_it_does_not_own(wire_uri: str) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(wire_uri)
    store = mongo_parts(client[f"eden_{uuid.uuid4().hex}"])
    await store.close()
    kept = fact("still reachable")
    await store.facts.add_facts([kept], [axis(0)])
    assert await store.facts.get_facts([kept.id]) == [kept]
    assert store.ctx.transactions is None  # no multi-write call ran yet
    await client.close()


async def test_transactions_are_used_where_the_server_has_them(wire_uri: str) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(wire_uri)
    on_server = mongo_parts(client[f"eden_{uuid.uuid4().hex}"])
    on_mock = mongomock_store()
    try:
        for store in (on_server, on_mock):
            await store.sessions.end_session(A, SessionId("s"), T0)
            await store.sessions.delete_session(A, SessionId("s"))
        assert on_server.ctx.transactions is True
        assert on_mock.ctx.transactions is False
    finally:
        await client.close()
