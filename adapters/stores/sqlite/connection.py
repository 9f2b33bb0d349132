"""Opening connections, translating sqlite3 errors, and the thread each connection lives on.

sqlite3 blocks: a write may wait up to ``busy_timeout`` for another process's lock. Each
connection therefore lives on its own single-thread executor, so the event loop never waits
on a lock and a connection is never used by two threads at once.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from eden_memory.adapters.stores.sqlite.decoding import Undecodable, damaged
from eden_memory.domain.errors import (
    ConflictError,
    EdenMemoryError,
    StoreCorruptedError,
    StoreError,
    StoreUnavailableError,
)

T = TypeVar("T")

BUSY_TIMEOUT_SECONDS = 5.0
MMAP_BYTES = 1 << 30  # address space, not memory; SQLite maps no more than the file
# The writer's page cache, in KiB (SQLite's default is 2 MiB). Inserts land at random places
# of the id and content-hash indexes; past ~100k facts those no longer fit in 2 MiB, and a
# batch re-reads the same pages. Memory is taken only as pages are used.
WRITER_CACHE_KIB = 64 * 1024
_UNAVAILABLE = ("locked", "busy", "unable to open", "disk i/o")
# SQLITE_CORRUPT (also FTS5's SQLITE_CORRUPT_VTAB) and SQLITE_NOTADB: the primary codes of a
# damaged file ("database disk image is malformed", "file is not a database").
_CORRUPT_CODES = frozenset({11, 26})
# sqlite3's own error for stored text that is not UTF-8; it quotes the text, which is dropped.
_NOT_UTF8 = re.compile(r"^Could not decode to UTF-8 column '([^']*)'")


class StoreConnection(sqlite3.Connection):
    """A connection that knows its file (``path``, named by the errors it raises)."""

    path: Path | None = None


def store_path(conn: sqlite3.Connection) -> Path | None:
    return conn.path if isinstance(conn, StoreConnection) else None


def connect(
    path: Path,
    *,
    busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    read_only: bool = False,
    mapped: bool = True,
) -> StoreConnection:
    """A connection in autocommit mode: transactions are opened explicitly where needed.

    ``busy_timeout`` is how long a statement waits for another process's lock before the
    store gives up with ``StoreUnavailableError``. ``mapped``: read through a memory map.
    The vector searcher's connection is not mapped: loading a partition reads every row of
    it once, and mapped pages count as the process's resident memory (+570 MB at 100k facts,
    against +111 MB read with system calls, measured), for a read that is not repeated.
    """
    with translated(path):
        conn = sqlite3.connect(
            path,
            isolation_level=None,
            check_same_thread=False,
            timeout=busy_timeout,
            factory=StoreConnection,
        )
        conn.path = path
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        # WAL: readers never wait for the writer; NORMAL sync is durable against crashes of
        # the process, and loses at most the last commits on power loss, never the file.
        conn.execute("PRAGMA synchronous = NORMAL")
        # Reads through a memory map skip a system call per page: keyword search, which
        # visits one fact row per match, runs about 40% faster at 100k facts.
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES if mapped else 0}")
        if read_only:
            conn.execute("PRAGMA query_only = ON")
        else:
            conn.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KIB}")
            # Freed content is zeroed: what an erasure removes does not linger in free pages.
            conn.execute("PRAGMA secure_delete = ON")
        return conn


def translate(exc: sqlite3.Error, path: Path | None = None) -> StoreError:
    """The library's error for a sqlite3 one; no sqlite3 exception reaches a caller.

    ``path``: the store's file, which a damaged one names."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _CORRUPT_CODES:
        return StoreCorruptedError(f"{damaged(path)}: {text}")
    if not_utf8 := _NOT_UTF8.match(text):
        return StoreCorruptedError(
            f"{damaged(path)}: the column {not_utf8[1]!r} of a row is not UTF-8 text"
        )
    if isinstance(exc, sqlite3.IntegrityError):
        return ConflictError(f"the embedded store refused a write: {text}")
    if isinstance(exc, sqlite3.OperationalError) and any(w in text.lower() for w in _UNAVAILABLE):
        return StoreUnavailableError(f"the embedded store is unavailable: {text}")
    return StoreError(f"the embedded store failed: {text}")


def not_utf8(exc: UnicodeDecodeError, path: Path | None) -> StoreCorruptedError:
    """sqlite3 decodes the text of a row, and of SQLite's own messages (which can quote the
    damaged schema), as UTF-8; bytes that are not are damage."""
    return StoreCorruptedError(f"{damaged(path)}: text that is not UTF-8 ({exc.reason})")


@contextmanager
def translated(path: Path | None = None) -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, path) from exc


@contextmanager
def transaction(conn: sqlite3.Connection, *, write: bool) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` for writes (the write lock up front, so checks and writes are
    atomic across processes); a plain ``BEGIN`` for reads (one consistent snapshot)."""
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise


class Worker:
    """One connection on one thread; jobs run in submission order."""

    def __init__(self, name: str, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._closed = False

    async def run(self, job: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed:
            raise StoreError("the embedded store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._guarded, job)

    def call(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run a job from synchronous code (opening, tests), still on the worker's thread."""
        if self._closed:
            raise StoreError("the embedded store is closed")
        return self._executor.submit(self._guarded, job).result()

    def _guarded(self, job: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return job(self._conn)
        except Undecodable as exc:
            raise exc.in_file(store_path(self._conn)) from exc
        except EdenMemoryError:
            raise
        except sqlite3.Error as exc:
            raise translate(exc, store_path(self._conn)) from exc
        except UnicodeDecodeError as exc:
            raise not_utf8(exc, store_path(self._conn)) from exc

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._executor.submit(self._conn.close).result()
        self._executor.shutdown(wait=True)
