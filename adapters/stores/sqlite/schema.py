"""Opening a file at the schema's version: creating it, upgrading it, refusing a newer one.

``PRAGMA user_version`` holds the schema version. Opening a file upgrades it step by step
(``MIGRATIONS[v]`` takes version v to v + 1; one module per version in ``migrations``) inside
one write transaction, so two processes
opening an old file at once migrate it once. A file from a newer eden-memory is refused:
this code cannot know what the newer layout means.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from eden_memory.adapters.stores.sqlite.migrations.v01_layout import create
from eden_memory.domain.errors import ConfigurationError, StoreError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate", "prepare", "schema_version"]

# A fact's row is ~2.4 KB (its vector alone 1.5 KB): one fits in a 4 KB page, three in an
# 8 KB one. Measured on 20k facts: 3.1 KB per fact on disk instead of 4.5, inserts and the
# vector load no slower (docs/record/decisions/stores.md, "Embedded store at scale").
PAGE_BYTES = 8192
MIGRATION_WAIT_MS = 15 * 60 * 1000
# A vector file of a release before schema version 11 (<key hash>.<type>), or its temporary
# file (<key hash>.<token>.tmp).
_OLD_VECTOR_FILE = re.compile(r"[0-9a-f]{40}\.(float16|float32|[0-9a-f]{32}\.tmp)")


def prepare(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode and bring its schema to ``SCHEMA_VERSION``."""
    _require_fts5(conn)
    # Takes effect only in a new file (an existing one keeps its size until a VACUUM).
    conn.execute(f"PRAGMA page_size = {PAGE_BYTES}")
    conn.execute("PRAGMA journal_mode = WAL")
    if schema_version(conn) == SCHEMA_VERSION:
        return  # the common case takes no write lock
    # Upgrading a large file rebuilds its keyword index (seconds per 100k facts): a process
    # opening it meanwhile waits for that rather than failing after the usual busy timeout.
    (usual,) = conn.execute("PRAGMA busy_timeout").fetchone()
    conn.execute(f"PRAGMA busy_timeout = {MIGRATION_WAIT_MS}")
    try:
        with transaction(conn, write=True):
            migrate(conn, SCHEMA_VERSION, MIGRATIONS)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(usual)}")


def migrate(conn: sqlite3.Connection, target: int, migrations: Mapping[int, Migration]) -> None:
    """Create a new file, or upgrade an old one one version at a time; refuse a newer one."""
    version = schema_version(conn)
    if version > target:
        raise StoreError(
            f"this store file has schema version {version}, written by a newer eden-memory; "
            f"this version reads up to {target}: upgrade eden-memory to open it"
        )
    if version == 0:
        _refuse_foreign(conn)
        create(conn)
        version = 1
    for step in range(version, target):
        migrations[step](conn)
    conn.execute(f"PRAGMA user_version = {int(target)}")


def forget_vector_files(path: Path) -> None:
    """Delete the vector files a release before schema version 11 kept beside the store
    (``<store>.vectors/``): the file holds the vectors now. Only the files it named are
    deleted, then the folder if that left it empty."""
    folder = path.with_name(path.name + ".vectors")
    if not folder.is_dir():
        return
    for old in folder.iterdir():
        if _OLD_VECTOR_FILE.fullmatch(old.name):
            with suppress(OSError):
                old.unlink()
    with suppress(OSError):
        folder.rmdir()


def optimize(conn: sqlite3.Connection) -> None:
    """Refresh the query planner's statistics where they are stale (cheap; run on close)."""
    conn.execute("PRAGMA analysis_limit = 1000")
    conn.execute("PRAGMA optimize")


def schema_version(conn: sqlite3.Connection) -> int:
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    return int(version)


def _refuse_foreign(conn: sqlite3.Connection) -> None:
    """A version-0 file with tables belongs to some other program: leave it alone."""
    if conn.execute("SELECT EXISTS (SELECT 1 FROM sqlite_master)").fetchone()[0]:
        raise StoreError("this file is an SQLite database of another program, not a memory store")


def _require_fts5(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.fts5_probe")
    except sqlite3.OperationalError as exc:
        raise ConfigurationError(
            "the embedded store needs SQLite with FTS5, which this Python's sqlite3 lacks"
        ) from exc
