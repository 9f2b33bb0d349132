"""A reflection document written before reflections had versions reads as version 1 and is
edited by compare-and-set like any other, on mongomock and on a real wire server."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient
from pymongo import AsyncMongoClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey

T0 = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
KEY = ScopeKey.user("agent", "user")


@pytest.fixture(params=["mongomock", "wire"])
async def database(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    name = f"eden_{uuid.uuid4().hex}"
    if request.param == "mongomock":
        yield AsyncMongoMockClient()[name]
        return
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(request.getfixturevalue("wire_uri"))
    yield client[name]
    await client.drop_database(name)
    await client.close()


async def test_a_reflection_stored_without_a_version_is_version_one(database: Any) -> None:
    stores = mongo_stores(database)
    note = Reflection.in_scope(
        KEY, id=ReflectionId("r1"), content="Likes tea", formed_at=T0, created_at=T0
    )
    await stores.buffers.add_reflections([note])
    # the document as an older eden-memory wrote it
    await database["memory2_reflections"].update_one(
        {"_id": "r1"}, {"$unset": {"version": "", "history": ""}}
    )
    old = await stores.buffers.get_reflection(note.id)
    assert old is not None
    assert (old.version, old.history) == (1, ())
    with pytest.raises(ConflictError):
        await stores.note_records.update_reflection(old.revised("Likes coffee", T0), 2)
    edited = old.revised("Likes green tea", T0)
    assert await stores.note_records.update_reflection(edited, 1) == edited
    assert await stores.buffers.get_reflection(note.id) == edited
    with pytest.raises(ConflictError):
        await stores.note_records.update_reflection(old.revised("Likes coffee", T0), 1)
