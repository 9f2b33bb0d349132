"""Every store the formation tests run on: the fake, the embedded one, MongoDB (mongomock);
and the name of a real MongoDB server, which the tests that need one ask for."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.ports.stores import Stores

STORES = ["memory", "sqlite", "mongomock"]
# A real MongoDB wire-protocol server (SecantusDB): ``make_any_store`` in the conftest.
WIRE = "wire"
StoreMaker = Callable[[], Awaitable[Stores]]


async def stores_of_kind(kind: str, folder: Path) -> Stores:
    """A new, empty store of one kind (an embedded one in a file of ``folder``)."""
    if kind == "memory":
        return memory_stores()
    if kind == "sqlite":
        return await open_sqlite(folder / f"{uuid.uuid4().hex}.db")
    return mongo_stores(AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"])
