"""What every command shares: the configuration and an open ``MemoryService``.

Only a command that writes may create the embedded store: one that reads (or edits what is
there) refuses a file that does not exist, naming it, so that a mistyped ``--store`` is an
error rather than an empty answer from a store made on the spot.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig, from_environment
from eden_memory.domain.errors import ConfigurationError
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

    def store_config(self, creates: bool = False) -> EdenMemoryConfig:
        """The configuration; unless the command ``creates``, only once its store exists."""
        config = self.config()
        if not creates:
            require_store(config)
        return config

    @asynccontextmanager
    async def memory(self, creates: bool = False) -> AsyncIterator[MemoryService]:
        async with open_memory(self.store_config(creates)) as service:
            yield service

    def run(self, work: Callable[[MemoryService], Awaitable[T]], creates: bool = False) -> T:
        async def go() -> T:
            async with self.memory(creates) as service:
                return await work(service)

        return asyncio.run(go())


def require_store(config: EdenMemoryConfig) -> None:
    """Refuse an embedded store file that does not exist (a folder is SQLite's to refuse)."""
    path = config.store_path
    if config.store != "embedded" or path.exists():
        return
    raise ConfigurationError(
        f"there is no memory store at {path} (check --store or EDEN_MEMORY_STORE_PATH); "
        "only a command that writes creates one: demo, import, add-facts, migrate-v1, mcp"
    )


def store_label(config: EdenMemoryConfig) -> str:
    """Where the memory is, as a person names it."""
    if config.store == "embedded":
        return str(config.store_path)
    if config.store == "mongo":
        return f"the MongoDB database {config.mongodb_database}"
    return "the in-memory store"
