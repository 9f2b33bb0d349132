"""What every command shares: the configuration and an open ``MemoryService``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig, from_environment
from eden_memory.factory import open_memory

T = TypeVar("T")


@dataclass
class State:
    store_path: Path | None = None

    def config(self) -> EdenMemoryConfig:
        base = from_environment()
        if self.store_path is None:
            return base
        return base.model_copy(update={"store_path": self.store_path})

    @asynccontextmanager
    async def memory(self) -> AsyncIterator[MemoryService]:
        async with open_memory(self.config()) as service:
            yield service

    def run(self, work: Callable[[MemoryService], Awaitable[T]]) -> T:
        async def go() -> T:
            async with self.memory() as service:
                return await work(service)

        return asyncio.run(go())
