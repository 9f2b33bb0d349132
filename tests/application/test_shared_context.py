"""Workers on one store share the context cache, with the freshness rules of one process.

Two services over the same SQLite file (two handles, as two processes hold) or the same
MongoDB database stand for two workers behind a load balancer: a context one built is served
by the other from the store, and a change made by either is in the other's next context.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.context.assembly import ContextLabels, recipe
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import ActiveScopes, AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import ContextSettings, MemorySettings
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
AGENT = AgentMemoryConfig("nova")


@dataclass
class Workers:
    a: MemoryService
    b: MemoryService
    clock: FakeClock
    stores: tuple[Stores, Stores]


async def _pair(kind: str, folder: Path) -> tuple[Stores, Stores]:
    if kind == "sqlite":
        path = folder / "memory.db"
        return await open_sqlite(path), await open_sqlite(path)
    database: Any = AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"]
    return mongo_stores(database), mongo_stores(database)


async def _workers(kind: str, folder: Path, settings: MemorySettings | None = None) -> Workers:
    clock = FakeClock(NOW)
    pair = await _pair(kind, folder)
    a, b = (MemoryService(s, KeywordEmbedder(), ScriptedLLM([]), clock, settings) for s in pair)
    return Workers(a, b, clock, pair)


@pytest.fixture(params=["sqlite", "mongomock"])
async def workers(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Workers]:
    pair = await _workers(request.param, tmp_path)
    await _remember(pair.a, "Alice likes green tea")
    yield pair
    for stores in pair.stores:
        await stores.close()


async def _remember(memory: MemoryService, content: str, **extra: Any) -> None:
    item = {"content": content, "agent_id": "nova", "user_id": "alice"}
    formed = {"formed_at": memory.clock.now() - timedelta(minutes=1)}
    report = await memory.admin.add_facts([item | formed | extra])
    assert len(report.added) == 1


def _conv(memory: MemoryService, session: str = "s1", user: str = "alice") -> Any:
    return memory.conversation(AGENT, session, [user])


async def _context(memory: MemoryService, session: str = "s1", user: str = "alice") -> Any:
    """A prompt's context, once the copy for the other workers is saved (off the caller's
    path: a real worker answers meanwhile)."""
    context = await memory.get_context(_conv(memory, session, user))
    await memory.wait_for_background()
    return context


async def test_a_context_built_by_one_worker_is_served_by_the_other(workers: Workers) -> None:
    built = await _context(workers.a)
    served = await _context(workers.b)
    assert not built.from_cache
    assert served.from_cache
    assert served.cached_in == "store"
    assert served.xml == built.xml
    again = await _context(workers.b)
    assert again.cached_in == "process"  # kept by b's own cache from then on


async def test_a_worker_told_another_user_name_never_serves_the_first_name(
    workers: Workers,
) -> None:
    key = ScopeKey.user("nova", "alice")
    await workers.a.admin.replace_consolidated(key, "Prefers short answers", expected_version=0)
    named = workers.a.conversation(AGENT, "s1", ["alice"], user_name="Alice Smith")
    first = await workers.a.get_context(named)
    await workers.a.wait_for_background()
    renamed = workers.b.conversation(AGENT, "s1", ["alice"], user_name="Al")
    served = await workers.b.get_context(renamed)
    assert 'name="Alice Smith"' in first.xml
    assert not served.from_cache
    assert 'name="Al"' in served.xml
    again = workers.b.conversation(AGENT, "s1", ["alice"], user_name="Alice Smith")
    assert (await workers.b.get_context(again)).cached_in == "store"


async def test_a_change_made_by_one_worker_is_in_the_others_next_context(
    workers: Workers,
) -> None:
    await _context(workers.a)
    assert (await _context(workers.b)).from_cache
    workers.clock.advance(seconds=1)
    await _remember(workers.a, "Alice keeps bees on her roof")
    after = await _context(workers.b)
    assert not after.from_cache
    assert "bees on her roof" in after.xml
    # And a's stale copy is not served back to a either: b's rebuild is.
    served = await _context(workers.a)
    assert served.cached_in == "store"
    assert "bees on her roof" in served.xml


async def test_a_stored_context_past_the_ttl_is_not_served(workers: Workers) -> None:
    await _context(workers.a)
    workers.clock.advance(seconds=300)
    assert not (await _context(workers.b)).from_cache


async def test_a_stored_context_showing_an_expired_fact_is_not_served(workers: Workers) -> None:
    until = {"valid_until": NOW + timedelta(minutes=1)}
    await _remember(workers.a, "Alice is in Rome this week", **until)
    assert "Rome" in (await _context(workers.a)).xml
    workers.clock.advance(seconds=61)  # nothing was written: the fact expired
    later = await _context(workers.b)
    assert not later.from_cache
    assert "Rome" not in later.xml


async def test_each_user_and_session_is_served_only_its_own(workers: Workers) -> None:
    alice = await _context(workers.a)
    bob = await _context(workers.b, user="bob")
    other = await _context(workers.b, session="s2")
    assert not bob.from_cache
    assert not other.from_cache
    assert "green tea" in alice.xml
    assert "green tea" not in bob.xml


async def test_erasing_a_user_drops_every_stored_context_of_the_agent(workers: Workers) -> None:
    await _context(workers.a)
    await _context(workers.a, session="s2", user="bob")
    await workers.b.admin.erase_user("nova", "alice")
    for stores in workers.stores:
        for session, user in (("s1", "alice"), ("s2", "bob")):
            scopes = _conv(workers.a, session, user).scopes(True)
            assert await stores.contexts.load_context(scopes, _made(scopes)) is None


@pytest.mark.parametrize("kind", ["sqlite", "mongomock"])
async def test_with_the_shared_level_off_each_worker_builds_its_own(
    kind: str, tmp_path: Path
) -> None:
    off = MemorySettings(context=ContextSettings(cache_shared=False))
    pair = await _workers(kind, tmp_path, off)
    try:
        await _context(pair.a)
        assert not (await _context(pair.b)).from_cache
        assert (await _context(pair.b)).cached_in == "process"
        scopes = _conv(pair.a).scopes(True)
        assert await pair.stores[0].contexts.load_context(scopes, _made(scopes)) is None
    finally:
        for stores in pair.stores:
            await stores.close()


def _made(scopes: ActiveScopes) -> str:
    """The recipe the service keeps a default conversation's context under."""
    return recipe(scopes, MemorySettings().facts, ContextLabels())
