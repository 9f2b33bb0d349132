"""One full cycle into the persistent stores: migrate, re-run, roll back.

The embedded SQLite store, and the MongoDB store (on mongomock), so the blob's
compare-and-set from "absent" (expected version 0) and the rollback's ``delete_scope``
are checked on real adapters, not only on the in-memory fake.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.migration import JsonFileJournal, MongoV1Source
from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.migration import Kind, rollback_v1
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import Stores
from tests.migration.helpers import run, snapshot
from tests.migration.v1_data import AGENT_A_ID, NOW, USER_1_ID, load


@pytest.fixture(params=["sqlite", "mongo"])
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Stores]:
    if request.param == "sqlite":
        stores = await open_sqlite(tmp_path / "memory.db")
    else:
        stores = mongo_stores(AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"])
    try:
        yield stores
    finally:
        await stores.close()


async def test_cycle(target: Stores, tmp_path: Path) -> None:
    database: Any = AsyncMongoMockClient()["v1"]
    await load(database)
    source = MongoV1Source(database, label="fixture")
    empty = await snapshot(target)
    first = await run(source, target, tmp_path / "runs", active_session_episodes=True)
    assert first.totals()[Kind.AGENT_FACT].written == 4
    key = ScopeKey.user(AGENT_A_ID, USER_1_ID)
    assert (await target.buffers.get_consolidated([key]))[key].content.startswith("Sam prefers")
    after = await snapshot(target)
    second = await run(source, target, tmp_path / "runs", active_session_episodes=True)
    assert second.writes == []
    assert await snapshot(target) == after
    await rollback_v1(target, JsonFileJournal(tmp_path / "runs"), first.run_id or "", NOW)
    assert await snapshot(target) == empty
