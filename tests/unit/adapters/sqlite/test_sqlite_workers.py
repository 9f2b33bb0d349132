"""A concern's method runs on the worker its decorator names, with that worker's connection.

The five SQLite classes write each port method once, taking the connection after ``self``;
``on_writer``, ``on_reader`` and ``on_searcher`` make it the port's async method. What a
caller sees is the port's signature, and what the method raises is the store's error.
"""

from __future__ import annotations

import inspect
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import SqliteFacts, SqliteSessions, open_sqlite
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_searcher, on_writer
from eden_memory.domain.errors import ConflictError

Seen = tuple[str, bool, str]


class Probe:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    @staticmethod
    def _seen(conn: sqlite3.Connection, tag: str) -> Seen:
        (read_only,) = conn.execute("PRAGMA query_only").fetchone()
        return threading.current_thread().name, bool(read_only), tag

    @on_writer
    def written(self, conn: sqlite3.Connection, tag: str) -> Seen:
        return self._seen(conn, tag)

    @on_reader
    def read(self, conn: sqlite3.Connection, tag: str) -> Seen:
        return self._seen(conn, tag)

    @on_searcher
    def searched(self, conn: sqlite3.Connection, tag: str = "searched") -> Seen:
        return self._seen(conn, tag)

    @on_writer
    def refused(self, conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO counters VALUES ('fact_seq', 1)")  # its primary key is taken


@pytest.fixture
async def probe(tmp_path: Path) -> AsyncIterator[Probe]:
    async with await open_sqlite(tmp_path / "memory.db") as stores:
        assert isinstance(stores.facts, SqliteFacts)
        yield Probe(stores.facts._handle)


async def test_each_method_runs_on_its_workers_thread_and_connection(probe: Probe) -> None:
    assert await probe.written("w") == ("eden-sqlite-writer_0", False, "w")
    assert await probe.read(tag="r") == ("eden-sqlite-reader_0", True, "r")
    assert await probe.searched() == ("eden-sqlite-vectors_0", True, "searched")


async def test_what_the_method_raises_is_the_stores_error(probe: Probe) -> None:
    with pytest.raises(ConflictError, match="the embedded store refused a write"):
        await probe.refused()


def test_callers_see_the_ports_signature_without_the_connection() -> None:
    assert list(inspect.signature(Probe.searched).parameters) == ["self", "tag"]
    claim = inspect.signature(SqliteSessions.claim_messages).parameters
    assert "conn" not in claim
    assert list(claim)[:3] == ["self", "agent_id", "session_id"]
    assert inspect.iscoroutinefunction(SqliteSessions.claim_messages)
