"""Sources on mongomock (through mongomock-motor) and on a real wire-protocol server."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient
from pymongo import AsyncMongoClient

from eden_memory.adapters.migration import MongoV1Source
from tests.migration.v1_data import load
from tests.unit.adapters.mongo import wire_server


@pytest.fixture(scope="session")
def wire_uri() -> Iterator[str]:
    if not wire_server.available():
        pytest.fail(f"{wire_server.SERVER} is not installed (SecantusDB==0.7.0b3)")
    with wire_server.wire_server() as uri:
        yield uri


@pytest.fixture(params=["mongomock", "wire"])
async def v1_db(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """A database holding the v1 fixture collections."""
    name = f"v1_{uuid.uuid4().hex}"
    if request.param == "mongomock":
        mock: Any = AsyncMongoMockClient()[name]
        await load(mock)
        yield mock
        return
    uri = request.getfixturevalue("wire_uri")
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(uri)
    database = client[name]
    await load(database)
    yield database
    await client.drop_database(name)
    await client.close()


@pytest.fixture
def source(v1_db: Any) -> MongoV1Source:
    return MongoV1Source(v1_db, label="fixture")
