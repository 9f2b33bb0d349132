"""The store contract on MongoDB: mongomock (through mongomock-motor) and a real server.

The real server is SecantusDB, a MongoDB wire-protocol server on WiredTiger, started once
per test session as a subprocess on a free port (``tests/unit/adapters/mongo/wire_server``).
Neither backend has Atlas Search, so both run the store's fallback search; mongomock has
no transactions (the ordered path), SecantusDB has them (the transactional path). A third
run is mongomock behind the fake Atlas with every collection sharded as docs/atlas.md
advises: mongos refuses an upsert whose filter does not pin the shard key, and so does it.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
from mongomock_motor import AsyncMongoMockClient
from pymongo import AsyncMongoClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.ports.stores import Stores
from tests.contract.store_contract import StoreContract, StoreFactory
from tests.unit.adapters.mongo import wire_server
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase

# The shard keys docs/atlas.md advises (the meta collection holds one document: unsharded).
SHARDED = {
    "memory2_facts": ("agent_id",),
    "memory2_reflections": ("agent_id",),
    "memory2_consolidated": ("agent_id",),
    "memory2_sessions": ("agent_id", "session_id"),
    "memory2_messages": ("agent_id", "session_id"),
    "memory2_revisions": ("agent_id",),
    "memory2_contexts": ("agent_id", "session_id"),
}


@pytest.fixture(scope="session")
def wire_uri() -> Iterator[str]:
    """One SecantusDB server for the whole session (see ``wire_server``)."""
    if not wire_server.available():
        pytest.fail(
            f"{wire_server.SERVER} is not installed: pip install -e '.[dev]' (SecantusDB==0.7.0b3)"
        )
    with wire_server.wire_server() as uri:
        yield uri


class TestMongoStoresOnMongomock(StoreContract):
    @pytest.fixture
    def make_stores(self) -> StoreFactory:
        async def make() -> Stores:
            return mongo_stores(AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"])

        return make


class TestMongoStoresOnWireServer(StoreContract):
    @pytest.fixture
    async def make_stores(self, wire_uri: str) -> AsyncIterator[StoreFactory]:
        client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(wire_uri)
        names: list[str] = []

        async def make() -> Stores:
            names.append(f"eden_{uuid.uuid4().hex}")
            return mongo_stores(client[names[-1]])

        yield make
        for name in names:
            await client.drop_database(name)
        await client.close()


class TestMongoStoresOnAShardedCluster(StoreContract):
    @pytest.fixture
    def make_stores(self) -> StoreFactory:
        async def make() -> Stores:
            return mongo_stores(FakeAtlasDatabase(Atlas(shard_keys=dict(SHARDED))))

        return make
