"""The store contract, run against the embedded SQLite store on temporary files.

Twice: with the vectors in half precision (SimSIMD, exact re-scoring of close calls), the
default where SimSIMD is installed, and in single precision (numpy and BLAS).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.vectors.scan import Precision
from eden_memory.ports.stores import Stores
from tests.contract.store_contract import StoreContract, StoreFactory


class TestSqliteStores(StoreContract):
    precision: Precision = "half"

    @pytest.fixture
    async def make_stores(self, tmp_path: Path) -> AsyncIterator[StoreFactory]:
        opened: list[Stores] = []

        async def make() -> Stores:
            # A folder per store: opening creates missing folders.
            path = tmp_path / f"store-{len(opened)}" / "memory.db"
            store = await open_sqlite(path, vector_precision=self.precision)
            opened.append(store)
            return opened[-1]

        yield make
        for stores in opened:
            await stores.close()


class TestSqliteStoresSinglePrecision(TestSqliteStores):
    precision: Precision = "single"
