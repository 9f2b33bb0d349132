"""The store contract, run against the in-memory store."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from eden_memory.adapters.stores.memory import InMemoryStore
from eden_memory.ports.stores import MemoryStore
from tests.contract.store_contract import StoreContract, StoreFactory


class TestInMemoryStore(StoreContract):
    @pytest.fixture
    async def make_store(self) -> AsyncIterator[StoreFactory]:
        stores: list[InMemoryStore] = []

        async def make() -> MemoryStore:
            stores.append(InMemoryStore())
            return stores[-1]

        yield make
        for store in stores:
            await store.close()
