"""Every store the formation tests run on: the fake, the embedded one, MongoDB (mongomock)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from eden_memory.ports.stores import MemoryStore

STORES = ["memory", "sqlite", "mongomock"]
StoreMaker = Callable[[], Awaitable[MemoryStore]]
