"""Fixtures shared by the application tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.mongo import MongoStore
from eden_memory.adapters.stores.sqlite import SqliteStore
from eden_memory.ports.stores import MemoryStore
from eden_memory.testing import InMemoryStore
from tests.application.stores import STORES, StoreMaker


@pytest.fixture(params=STORES)
async def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StoreMaker]:
    """Makes empty stores of one kind; the embedded ones are closed after the test."""
    opened: list[SqliteStore] = []

    async def make() -> MemoryStore:
        if request.param == "memory":
            return InMemoryStore()
        if request.param == "sqlite":
            opened.append(await SqliteStore.open(tmp_path / f"{uuid.uuid4().hex}.db"))
            return opened[-1]
        return MongoStore(AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"])

    yield make
    for store in opened:
        await store.close()
