"""The v1 reader's failures are the library's own errors, never pymongo's.

A v1 server that goes away, refuses the credentials or times out while a migration reads it
reaches the caller as ``StoreUnavailableError`` (worth running again) or ``StoreError``
naming what was being read; a run it interrupts resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pymongo.errors import (
    AutoReconnect,
    ExecutionTimeout,
    OperationFailure,
    PyMongoError,
    ServerSelectionTimeoutError,
)

from eden_memory.adapters.migration import JsonFileJournal, MongoV1Source
from eden_memory.domain.errors import StoreError, StoreUnavailableError
from eden_memory.testing import memory_stores
from tests.migration.helpers import run, snapshot
from tests.migration.v1_data import AGENT_A_ID, AGENT_B_ID, oid

AUTH_FAILED = OperationFailure("Authentication failed.", code=18)
NO_SERVER = ServerSelectionTimeoutError("v1-host:27017: [Errno 111] Connection refused")
TIMED_OUT = ExecutionTimeout("operation exceeded time limit", code=50)
DROPPED = AutoReconnect("connection closed")

Call = Callable[[MongoV1Source], Awaitable[Any]]

# Each public method, what it reads, and the call a database failure must surface from.
METHODS: dict[str, tuple[Call, str, str]] = {
    "agent_ids": (lambda s: s.agent_ids(), "distinct", "reading v1 agent ids"),
    "unowned": (lambda s: s.unowned(), "iterate", "reading v1 records without an agent"),
    "user_memories": (
        lambda s: s.user_memories(AGENT_A_ID),
        "iterate",
        f"reading v1 user memories of agent {AGENT_A_ID!r}",
    ),
    "agent_shards": (
        lambda s: s.agent_shards(AGENT_A_ID),
        "iterate",
        f"reading v1 agent shards of agent {AGENT_A_ID!r}",
    ),
    "session_memories": (
        lambda s: s.session_memories(AGENT_A_ID),
        "iterate",
        f"reading v1 session memories of agent {AGENT_A_ID!r}",
    ),
    "session_memories_by_id": (
        lambda s: s.session_memories_by_id([str(oid(1)), "m-2"]),
        "iterate",
        "reading v1 session memories by id",
    ),
}


class FailingCursor:
    """Yields ``before`` documents, then raises ``error`` (a connection lost mid-read)."""

    def __init__(self, error: PyMongoError, before: int) -> None:
        self.error = error
        self.before = before

    def sort(self, *args: Any) -> FailingCursor:
        return self

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._docs()

    async def _docs(self) -> AsyncIterator[dict[str, Any]]:
        for n in range(self.before):
            yield {"_id": f"doc-{n}", "agent_id": AGENT_A_ID}
        raise self.error


class FailingCollection:
    def __init__(self, error: PyMongoError, where: str) -> None:
        self.error = error
        self.where = where

    def find(self, *args: Any, **kwargs: Any) -> FailingCursor:
        if self.where == "find":
            raise self.error
        return FailingCursor(self.error, before=1)

    async def distinct(self, *args: Any, **kwargs: Any) -> list[Any]:
        raise self.error


class FailingDatabase:
    """A database object whose every collection fails ``where``: at ``find``, at
    ``distinct`` or while its cursor is iterated."""

    name = "v1"

    def __init__(self, error: PyMongoError, where: str) -> None:
        self.error = error
        self.where = where

    def __getitem__(self, collection: str) -> FailingCollection:
        return FailingCollection(self.error, self.where)


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize(
    ("error", "unavailable"),
    [(NO_SERVER, True), (DROPPED, True), (TIMED_OUT, True), (AUTH_FAILED, False)],
    ids=["no-server", "dropped", "timed-out", "auth-failed"],
)
async def test_each_read_raises_the_librarys_error(
    method: str, error: PyMongoError, unavailable: bool
) -> None:
    call, where, operation = METHODS[method]
    source = MongoV1Source(FailingDatabase(error, where))
    with pytest.raises(StoreError) as raised:
        await call(source)
    assert isinstance(raised.value, StoreUnavailableError) is unavailable
    assert operation in str(raised.value)
    assert str(error) in str(raised.value)
    assert raised.value.__cause__ is error  # the driver's own error kept for a traceback


@pytest.mark.parametrize("method", sorted(METHODS))
async def test_a_find_that_fails_at_once_is_translated_too(method: str) -> None:
    call, _, operation = METHODS[method]
    source = MongoV1Source(FailingDatabase(NO_SERVER, "find"))
    if method == "agent_ids":
        source = MongoV1Source(FailingDatabase(NO_SERVER, "distinct"))
    with pytest.raises(StoreUnavailableError, match=operation):
        await call(source)


class DropsOnce:
    """The fixture database, whose ``memory_sessions`` drops the connection once, after
    the first document of agent B's session memories."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.armed = True

    def __getitem__(self, collection: str) -> Any:
        if collection != "memory_sessions":
            return self.inner[collection]
        outer = self

        class Collection:
            def find(self, query: dict[str, Any], *args: Any) -> Any:
                cursor = outer.inner[collection].find(query, *args)
                agent = query.get("agent_id", {}).get("$in", [None])[0]
                if outer.armed and agent == AGENT_B_ID:
                    outer.armed = False
                    return FailingCursor(DROPPED, before=0)
                return cursor

            def __getattr__(self, name: str) -> Any:
                return getattr(outer.inner[collection], name)

        return Collection()


async def test_a_run_the_source_interrupts_resumes(v1_db: Any, tmp_path: Path) -> None:
    """The error leaves the journal unfinished; the same job run again resumes that run and
    ends with what an uninterrupted run writes."""
    clean = memory_stores()
    await run(MongoV1Source(v1_db, label="fixture"), clean, tmp_path / "clean")
    store = memory_stores()
    flaky = MongoV1Source(DropsOnce(v1_db), label="fixture")
    with pytest.raises(StoreUnavailableError, match="reading v1 session memories of agent"):
        await run(flaky, store, tmp_path / "run")
    journal = JsonFileJournal(tmp_path / "run")
    (interrupted,) = [p.name for p in (tmp_path / "run").iterdir()]
    assert await journal.report(interrupted) is None  # unfinished: the next run resumes it
    assert (await snapshot(store))[AGENT_A_ID] == (await snapshot(clean))[AGENT_A_ID]
    report = await run(flaky, store, tmp_path / "run")
    assert report.resumed
    assert report.run_id == interrupted
    assert await snapshot(store) == await snapshot(clean)
