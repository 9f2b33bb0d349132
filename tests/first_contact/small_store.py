"""The first thing a user does with their own data: three facts, then a search for each."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from eden_memory import MemoryService, open_memory
from eden_memory.config import EdenMemoryConfig, EmbedderKind, StoreKind
from eden_memory.ports.stores import Stores

AGENT, USER = "nova", "alice"
FACTS = [
    "Alice's email is alice@example.com",
    "Alice drinks green tea every morning",
    "The office is in Lyon",
]
# Each query, and the fact it must find first.
QUERIES = {
    "email": FACTS[0],
    "tea": FACTS[1],
    "office": FACTS[2],
    "What is my email?": FACTS[0],
    "Where is the office?": FACTS[2],
    "Alice's email": FACTS[0],
    "Lyon": FACTS[2],
}
SAID = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def config(store: StoreKind, embedder: EmbedderKind, folder: Path) -> EdenMemoryConfig:
    return EdenMemoryConfig(store=store, store_path=folder / "memory.db", embedder=embedder)


def records(agent: str = AGENT, user: str = USER) -> list[dict[str, object]]:
    return [
        {"content": c, "scope": "user", "agent_id": agent, "user_id": user, "formed_at": SAID}
        for c in FACTS
    ]


@asynccontextmanager
async def stocked(
    store: StoreKind | Stores, embedder: EmbedderKind, folder: Path
) -> AsyncIterator[MemoryService]:
    """A memory holding the three facts: a store kind, or ``Stores`` opened by the caller."""
    kind: StoreKind = "memory" if isinstance(store, Stores) else store
    ports = store if isinstance(store, Stores) else None
    async with open_memory(config(kind, embedder, folder), store=ports) as memory:
        report = await memory.admin.add_facts(records())
        assert len(report.added) == len(FACTS)
        yield memory
