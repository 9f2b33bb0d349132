"""Fixtures shared by the application tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pymongo import AsyncMongoClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.ports.stores import Stores
from tests.application.stores import STORES, WIRE, StoreMaker, stores_of_kind
from tests.unit.adapters.mongo import wire_server


@pytest.fixture(params=STORES)
async def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StoreMaker]:
    """Makes empty stores of one kind; they are closed after the test."""
    opened: list[Stores] = []

    async def make() -> Stores:
        opened.append(await stores_of_kind(request.param, tmp_path))
        return opened[-1]

    yield make
    for stores in opened:
        await stores.close()


@pytest.fixture(scope="session")
def wire_uri() -> Iterator[str]:
    """One SecantusDB server (MongoDB's wire protocol, a real server) for the session."""
    if not wire_server.available():
        pytest.fail(f"{wire_server.SERVER} is not installed (SecantusDB==0.7.0b3)")
    with wire_server.wire_server() as uri:
        yield uri


@pytest.fixture(params=[*STORES, WIRE])
async def make_any_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[StoreMaker]:
    """``make_store``'s stores and a real MongoDB server ("wire"), for tests that must see one."""
    opened: list[Stores] = []
    names: list[str] = []
    client: AsyncMongoClient[dict[str, object]] | None = None
    if request.param == WIRE:
        client = AsyncMongoClient(request.getfixturevalue("wire_uri"))

    async def make() -> Stores:
        if client is None:
            opened.append(await stores_of_kind(request.param, tmp_path))
            return opened[-1]
        names.append(f"eden_{uuid.uuid4().hex}")
        return mongo_stores(client[names[-1]])

    yield make
    for stores in opened:
        await stores.close()
    if client is not None:
        for name in names:
            await client.drop_database(name)
        await client.close()
