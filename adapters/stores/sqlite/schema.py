"""The file's layout, its version, and the migrations between versions.

``PRAGMA user_version`` holds the schema version. Opening a file upgrades it step by step
(``MIGRATIONS[v]`` takes version v to v + 1) inside one write transaction, so two processes
opening an old file at once migrate it once. A file from a newer eden-memory is refused:
this code cannot know what the newer layout means.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path

from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.ddl import (
    CREATE_SESSION_CONTEXTS,
    CREATE_V1,
    CREATE_VECTOR_CHUNKS,
    CREATE_VECTOR_FILES,
    CREATE_VECTOR_LOGS,
)
from eden_memory.adapters.stores.sqlite.keyword_index import (
    replace_update_triggers,
    stem_keyword_index,
)
from eden_memory.adapters.stores.sqlite.keyword_partitions import partition_keyword_index
from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vectors.log_builds import build
from eden_memory.domain.errors import ConfigurationError, StoreError

SCHEMA_VERSION = 13

Migration = Callable[[sqlite3.Connection], None]
# A fact's row is ~2.4 KB (its vector alone 1.5 KB): one fits in a 4 KB page, three in an
# 8 KB one. Measured on 20k facts: 3.1 KB per fact on disk instead of 4.5, inserts and the
# vector load no slower (docs/record/decisions/stores.md, "Embedded store at scale").
PAGE_BYTES = 8192
MIGRATION_WAIT_MS = 15 * 60 * 1000
# A vector file of a release before schema version 11 (<key hash>.<type>), or its temporary
# file (<key hash>.<token>.tmp).
_OLD_VECTOR_FILE = re.compile(r"[0-9a-f]{40}\.(float16|float32|[0-9a-f]{32}\.tmp)")


def _count_fact_partitions(conn: sqlite3.Connection) -> None:
    """Version 2 counts the partitions that have held facts (see ``revisions``)."""
    conn.execute(
        "INSERT INTO counters SELECT 'fact_partitions', COUNT(*) FROM scope_state "
        "WHERE fact_seq > 0 AND scope != 'session'"
    )


def _add_formation_plans(conn: sqlite3.Connection) -> None:
    """Version 4 keeps a formation's plan on its session until the claim completes."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
    if "formation_plan" not in columns:
        conn.execute("ALTER TABLE sessions ADD COLUMN formation_plan TEXT")


def _index_listing_order(conn: sqlite3.Connection) -> None:
    """Version 6 lists facts newest first, then by id, along one index, so a listing page
    continued from a position (``FactQuery.after``) starts where it is instead of sorting or
    skipping; the index it replaces was its prefix (agent, time)."""
    conn.execute("CREATE INDEX IF NOT EXISTS facts_listing ON facts (agent_id, formed_us DESC, id)")
    conn.execute("DROP INDEX IF EXISTS facts_agent_formed")


def _add_vector_files(conn: sqlite3.Connection) -> None:
    """Version 7 keeps each partition's vectors in a file beside the store as well
    (``vector_files``), and indexes the keyword text of added facts in one statement per
    batch (``facts.add_facts``) instead of a trigger per row. Nothing else changes: the
    files start empty and are written by the first search of each partition."""
    conn.execute(CREATE_VECTOR_FILES)
    conn.execute("DROP TRIGGER IF EXISTS facts_fts_insert")


def _index_owner_listing(conn: sqlite3.Connection) -> None:
    """Version 8 lists one user's (or one scope's) facts newest first along their own index.
    Along ``facts_listing`` alone, a page of one user's facts walked the agent's facts until
    enough of them matched: 189 ms for one page at 100k facts, 0.07 ms with this index
    (measured by the console's page benchmark)."""
    conn.execute(
        "CREATE INDEX IF NOT EXISTS facts_owner_listing "
        "ON facts (agent_id, scope, owner, formed_us DESC, id)"
    )


def _chain_vector_files(conn: sqlite3.Connection) -> None:
    """Version 9 names the chunks a vector file's valid bytes hold (``vector_files.digest``,
    over chunk headers that carry a nonce), so a chunk a power loss restored from a write
    that never committed is not read as the committed one (that release's ``vector_file``).
    A file of the
    old layout keeps its row, so erasure still finds and zeroes it, with a digest no file
    matches: each partition's next search writes it anew from the rows."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(vector_files)")}
    if columns and "digest" not in columns:  # none: a later layout, labelled older by hand
        conn.execute("ALTER TABLE vector_files ADD COLUMN digest BLOB NOT NULL DEFAULT x''")


def _vectors_in_rows(conn: sqlite3.Connection) -> None:
    """Version 11 keeps each partition's vectors in the file itself, as chunk rows written in
    the same transaction as the facts (``vector_logs``), instead of in files beside it. The
    files were a cache of the fact rows, which hold every vector in float32: each partition
    that had a file of the store's space gets its log of the same type built from its fact
    rows (every vector, whatever the file held), and ``vector_files`` goes; the files
    themselves are deleted once the upgrade has committed (``forget_vector_files``). A
    partition without a file is built at its first search, as it was before."""
    conn.execute(CREATE_VECTOR_LOGS)
    conn.execute(CREATE_VECTOR_CHUNKS)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "vector_files" not in tables:
        return
    space = read_space(conn)
    if space is not None:
        for agent_id, scope, owner, dtype in conn.execute(
            "SELECT agent_id, scope, owner, dtype FROM vector_files WHERE model = ? AND dim = ? "
            "AND dtype IN ('float16', 'float32')",
            (space.model, space.dimension),
        ).fetchall():
            build(conn, (agent_id, scope, owner), dtype, space)
    conn.execute("DROP TABLE vector_files")


def _keep_contexts(conn: sqlite3.Connection) -> None:
    """Version 12 keeps each session's rendered context in the file (``session_contexts``),
    so the processes sharing it serve the context one of them built. Nothing else changes:
    the table starts empty, and a context is built at each session's next prompt, as
    after a restart."""
    for statement in _statements(CREATE_SESSION_CONTEXTS):
        conn.execute(statement)


def _keep_who_was_present(conn: sqlite3.Connection) -> None:
    """Version 13 stamps each message, in its document, with the users present when it was
    recorded (``Message.present``), and files a user's words with no author under that user
    when they were alone (the ``author_id`` column). Nothing is rewritten: a message recorded
    before has no stamp and is credited as it was then (the session's users at formation).
    The version is what changes: a previous release, which refuses a document with a field
    it does not know, refuses the file as a newer one instead of failing on its messages."""
    del conn


# MIGRATIONS[v] upgrades a version-v file to v + 1; a new file is made at version 1 and
# upgraded like any other.
MIGRATIONS: Mapping[int, Migration] = {
    1: _count_fact_partitions,
    2: replace_update_triggers,  # and mends a keyword index damaged by the old ones
    3: _add_formation_plans,
    4: stem_keyword_index,  # the keyword index rebuilt with the Porter stemmer
    5: _index_listing_order,
    6: _add_vector_files,
    7: _index_owner_listing,
    8: _chain_vector_files,
    9: partition_keyword_index,  # a search reads only the visible partitions' entries
    10: _vectors_in_rows,
    11: _keep_contexts,
    12: _keep_who_was_present,
}


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
        _create(conn)
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


def _create(conn: sqlite3.Connection) -> None:
    # executescript would COMMIT the open transaction; run the statements one by one.
    for statement in _statements(CREATE_V1):
        conn.execute(statement)


def _refuse_foreign(conn: sqlite3.Connection) -> None:
    """A version-0 file with tables belongs to some other program: leave it alone."""
    if conn.execute("SELECT EXISTS (SELECT 1 FROM sqlite_master)").fetchone()[0]:
        raise StoreError("this file is an SQLite database of another program, not a memory store")


def _statements(script: str) -> list[str]:
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        if not pending and (not line.strip() or line.lstrip().startswith("--")):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    return out


def _require_fts5(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.fts5_probe")
    except sqlite3.OperationalError as exc:
        raise ConfigurationError(
            "the embedded store needs SQLite with FTS5, which this Python's sqlite3 lacks"
        ) from exc
