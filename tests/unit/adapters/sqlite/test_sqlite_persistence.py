"""The embedded store keeps everything on disk, guards its schema, and speaks our errors."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION, migrate, schema_version
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import StoreCorruptedError, StoreError, StoreUnavailableError
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Message, Reflection, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import PendingMessage

T0 = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
A, U = AgentId("agent"), UserId("user")
SPACE = EmbeddingSpace("test-embedder", 4)
VIEWER = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))


def fact(n: int, content: str) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content=content,
        scope=Scope.USER,
        agent_id=A,
        user_id=U,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model=SPACE.model,
        embedding_dim=SPACE.dimension,
    )


def pending(n: int) -> PendingMessage:
    sent = Message(id=MessageId(f"m{n}"), role=Role.USER, text=f"hello {n}", sent_at=T0)
    return PendingMessage(sent, weighted_tokens=2.0)


PROFILE = SessionProfile(A, SessionId("s"), (U,), True, True, "", False)


async def test_memory_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folders" / "memory.db"
    key = ScopeKey.user(A, U)
    stored = fact(1, "Ada prefers green tea")
    reflection = Reflection.in_scope(
        key, id=ReflectionId("r1"), content="Likes tea", formed_at=T0, created_at=T0
    )
    blob = ConsolidatedMemory.empty(key, 300).evolve(content="Tea person", version=1)
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([stored], [[1.0, 0.0, 0.0, 0.0]])
        await store.buffers.add_reflections([reflection])
        await store.buffers.replace_consolidated(blob, None)
        state = await store.sessions.record_messages(PROFILE, [pending(1), pending(2)], T0)
        revision = (await store.revisions.revisions([key]))[key]
    async with await open_sqlite(path) as store:
        assert await store.facts.get_facts([stored.id]) == [stored]
        assert await store.facts.embedding_space() == SPACE
        hits = await store.ranking.semantic_ranking([1.0, 0.0, 0.0, 0.0], VIEWER, 5, space=SPACE)
        assert [h.id for h in hits] == [stored.id]
        assert [h.id for h in await store.ranking.keyword_ranking("green tea", VIEWER, 5)] == [
            stored.id
        ]
        assert await store.buffers.get_reflection(reflection.id) == reflection
        assert await store.buffers.get_consolidated([key]) == {key: blob}
        assert await store.sessions.get_session(A, SessionId("s")) == state
        assert (await store.revisions.revisions([key]))[key] == revision


async def test_a_file_from_a_newer_eden_memory_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await (await open_sqlite(path)).close()
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer eden-memory"):
        await open_sqlite(path)


def test_migrations_run_one_version_at_a_time() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA user_version = 1")
    ran: list[int] = []
    steps = {1: lambda c: ran.append(1), 2: lambda c: ran.append(2)}
    migrate(conn, 3, steps)
    assert ran == [1, 2]
    assert schema_version(conn) == 3


async def test_another_programs_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="another program"):
        await open_sqlite(path)


async def test_a_file_that_is_no_database_is_a_damaged_store_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.write_bytes(b"this is not a sqlite file" * 100)
    with pytest.raises(StoreCorruptedError, match=f"the store file {re.escape(str(path))} is dam"):
        await open_sqlite(path)


async def test_a_folder_as_the_store_path_is_a_store_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=f"{re.escape(str(tmp_path))} is a folder") as raised:
        await open_sqlite(tmp_path)
    assert not isinstance(raised.value, StoreUnavailableError)  # not worth a retry


async def test_a_lock_held_while_opening_stays_retryable_and_names_the_path(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    await (await open_sqlite(path)).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailableError, match=re.escape(str(path))):
            await open_sqlite(path, busy_timeout=0.1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_a_closed_store_refuses_calls(tmp_path: Path) -> None:
    store = await open_sqlite(tmp_path / "memory.db")
    await store.close()
    await store.close()  # closing twice is harmless
    with pytest.raises(StoreError, match="closed"):
        await store.facts.get_facts([FactId("fact-1")])


async def test_a_write_lock_held_too_long_is_unavailable_and_reads_go_on(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path, busy_timeout=0.2) as store:
        await store.facts.add_facts([fact(1, "first")], [[1.0, 0.0, 0.0, 0.0]])
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreUnavailableError):
                await store.facts.add_facts([fact(2, "second")], [[0.0, 1.0, 0.0, 0.0]])
            assert len(await store.facts.get_facts([FactId("fact-1")])) == 1
        finally:
            holder.rollback()
            holder.close()
        assert len(await store.facts.add_facts([fact(2, "second")], [[0.0, 1.0, 0.0, 0.0]])) == 1


async def test_a_write_waiting_for_a_lock_does_not_block_the_event_loop(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path, busy_timeout=5.0) as store:
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        write = asyncio.create_task(store.facts.add_facts([fact(1, "late")], [[1.0, 0, 0, 0]]))
        ticks = 0
        for _ in range(10):
            await asyncio.sleep(0.01)
            ticks += 1
        assert await store.ranking.semantic_ranking([1.0, 0, 0, 0], VIEWER, 5, space=SPACE) == []
        assert not write.done()
        assert ticks == 10
        holder.rollback()
        holder.close()
        assert [f.id for f in await write] == [FactId("fact-1")]
