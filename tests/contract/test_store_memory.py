"""The store contract, run against the in-memory store."""

from __future__ import annotations

import pytest

from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.ports.stores import Stores
from tests.contract.store_contract import StoreContract, StoreFactory


class TestInMemoryStores(StoreContract):
    @pytest.fixture
    def make_stores(self) -> StoreFactory:
        async def make() -> Stores:
            return memory_stores()

        return make
