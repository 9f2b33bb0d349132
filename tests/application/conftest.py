"""Fixtures shared by the application tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eden_memory.ports.stores import Stores
from tests.application.stores import STORES, StoreMaker, stores_of_kind


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
