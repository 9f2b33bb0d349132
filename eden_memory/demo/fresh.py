"""``eden-memory demo --fresh``: start the demo's store over, never anyone else's memory.

The demo writes into the command line's store (``--store``, else ``EDEN_MEMORY_STORE_PATH``,
else ``.eden-memory/memory.db``) so that every other command reads what it wrote. That store
may hold other agents' memory too, so ``--fresh`` deletes the file only when the demo's agent
is the only one with memory in it, and otherwise refuses, naming the others.
"""

from __future__ import annotations

from pathlib import Path

from eden_memory.application.administration.owners import MAX_PAGE
from eden_memory.config import EdenMemoryConfig
from eden_memory.demo.script import AGENT_ID
from eden_memory.domain.errors import InvalidInputError
from eden_memory.factory import open_memory
from eden_memory.ports.embedder import Embedder


async def start_over(config: EdenMemoryConfig, embedder: Embedder) -> None:
    """Delete the store's files, once it is known to hold no other agent's memory."""
    path = config.store_path
    if path.exists():
        async with open_memory(config, embedder=embedder) as memory:
            held = (await memory.admin.agents_with_memory(None, MAX_PAGE)).names
        others = [a for a in held if a != AGENT_ID]
        if others:
            raise InvalidInputError(
                f"--fresh would delete the memory of other agents in {path} too "
                f"({', '.join(others[:10])}): give the demo a store of its own with --store"
            )
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        part.unlink(missing_ok=True)
