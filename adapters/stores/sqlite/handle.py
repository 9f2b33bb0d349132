"""``SqliteHandle``: what the five concern classes of one store file share.

Three workers, each one connection on one thread:

* the writer runs every write (``BEGIN IMMEDIATE`` transactions, one at a time);
* the reader runs plain reads and keyword search;
* the searcher runs semantic search, and alone touches the in-memory vector index.

The vector logs in the file have one writer, ``vector_logs``, reached through ``writing``:
it follows each write transaction, and mends the logs a search found lacking once a write
has committed, and on close.

In WAL mode readers never wait for the writer, so a search is never stuck behind a write
that waits for another process's lock; and a hybrid search's semantic and keyword halves,
started together by the application, run in parallel (sqlite3 and numpy release the GIL).
The concern classes keep nothing of the file's beyond this handle (the facts' cache of parsed
rows is checked against each row's stamp), so what one writes the others see at once, in
this process and in any other that opened the file. Each runs its statements on these
workers through the decorators of ``workers``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import numpy as np

from eden_memory.adapters.stores.sqlite.connection import (
    StoreConnection,
    Worker,
    connect,
    translated,
)
from eden_memory.adapters.stores.sqlite.revisions import Changes, writing
from eden_memory.adapters.stores.sqlite.schema import forget_vector_files, optimize, prepare
from eden_memory.adapters.stores.sqlite.vectors.index import VectorIndex
from eden_memory.adapters.stores.sqlite.vectors.log_writes import VectorLogWriter
from eden_memory.adapters.stores.sqlite.vectors.scan import Precision, choose
from eden_memory.domain.errors import StoreCorruptedError, StoreError


class SqliteHandle:
    def __init__(
        self, path: str | Path, *, busy_timeout: float, vector_precision: Precision
    ) -> None:
        """Open (creating or upgrading) the file at ``path``; blocks, so callers use a thread."""
        scan = choose(vector_precision)
        self.path = path = Path(path).expanduser()
        if path.is_dir():
            raise StoreError(f"the store path {path} is a folder: give a file's path in it")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder of the store {path}: {exc}") from exc
        conns: list[StoreConnection] = []
        try:
            conns.append(connect(path, busy_timeout=busy_timeout))
            with translated(path):
                prepare(conns[0])
            for mapped in (True, False):  # the reader's, then the vector searcher's
                conns.append(
                    connect(path, busy_timeout=busy_timeout, read_only=True, mapped=mapped)
                )
        except BaseException as exc:
            for conn in conns:
                conn.close()
            if isinstance(exc, StoreCorruptedError):
                raise  # names the file already
            if isinstance(exc, StoreError):  # the same kind (a lock stays retryable), with the path
                raise type(exc)(f"cannot open the store {path}: {exc}") from exc
            raise
        forget_vector_files(path)
        self.writer = Worker("eden-sqlite-writer", conns[0])
        self.reader = Worker("eden-sqlite-reader", conns[1])
        self.searcher = Worker("eden-sqlite-vectors", conns[2])
        # New logs start in the searcher's type; the writer's thread alone writes them.
        self.vector_logs = VectorLogWriter(np.dtype(scan.dtype).name)
        self.index = VectorIndex(scan, self.vector_logs.wants)  # the searcher's thread alone

    @contextmanager
    def writing(self, conn: sqlite3.Connection) -> Iterator[Changes]:
        """A write transaction on the writer whose counters and vector logs move with its
        changes; once it has committed, the logs a search found lacking are mended."""
        with writing(conn, self.vector_logs) as changes:
            yield changes
        self.vector_logs.mend_wanted(conn)

    def close(self) -> None:
        """Release the connections and the index; blocks, so callers use a thread."""
        with suppress(StoreError):  # mended logs and planner statistics are courtesies
            self.writer.call(self.vector_logs.mend_wanted)
            self.writer.call(optimize)
        self.searcher.close()
        self.reader.close()
        self.writer.close()
        self.index.clear()
