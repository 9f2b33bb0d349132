"""A writer that dies mid-transaction leaves the vectors and the facts as they were together.

The vectors are rows of the store file, written in the same transaction as the facts: there
is no second commit to get out of step with. Each test kills a process (``os._exit``) after
its transaction has written facts and chunks, with a page cache of a few pages so SQLite has
already spilled uncommitted pages into the write-ahead log, then opens the store: its log
and its chunks are what the last commit left, and every search ranks as the fact rows say.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.codec import vector_blob
from eden_memory.adapters.stores.sqlite.connection import connect
from eden_memory.adapters.stores.sqlite.facts.rows import INSERT_FACT, fact_key, insert_params
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.vectors.log_writes import VectorLogWriter
from eden_memory.domain.ids import FactId
from tests.unit.adapters.sqlite.test_sqlite_vector_logs import fact, ranked, truth, vectors

DIED = 3


def _die_writing(path: str) -> None:
    """Insert 200 facts one transaction, chunks appended and merged, then die before COMMIT."""
    conn = connect(Path(path))
    conn.execute("PRAGMA cache_size = 4")  # uncommitted pages reach the write-ahead log
    conn.execute("BEGIN IMMEDIATE")
    changes = Changes(conn, VectorLogWriter("float16"))
    for n in range(1000, 1200):
        ghost = fact(n)
        seq = changes.facts(fact_key(ghost))
        conn.execute(INSERT_FACT, insert_params(ghost, vector_blob([0.0, 0.0, 1.0]), seq))
    conn.execute("DELETE FROM facts WHERE id = 'fact-1'")
    changes.tombstone(fact_key(fact(1)), "fact-1")
    changes.flush()
    os._exit(DIED)


def _die_compacting(path: str) -> None:
    """Compact every log (as an erasure's scrub does), then die before COMMIT."""
    conn = connect(Path(path))
    conn.execute("PRAGMA cache_size = 4")
    conn.execute("BEGIN IMMEDIATE")
    VectorLogWriter("float16").compact_all(conn)
    os._exit(DIED)


def _state(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with sqlite3.connect(path) as raw:
        logs = raw.execute("SELECT * FROM vector_logs ORDER BY scope, owner").fetchall()
        chunks = raw.execute(
            "SELECT scope, chunk_no, count, removed, ids, rows FROM vector_chunks "
            "ORDER BY scope, chunk_no"
        ).fetchall()
    return logs, chunks


@pytest.mark.parametrize("dying", [_die_writing, _die_compacting])
async def test_a_writer_killed_before_its_commit_leaves_the_last_commit(
    tmp_path: Path, dying: Callable[[str], None]
) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path) as store:
        for n in range(40):  # small chunks, some merged
            await store.facts.add_facts([fact(n)], vectors(1, seed=n))
        await store.facts.add_facts([fact(n) for n in range(40, 90)], vectors(50))
        await store.fact_records.delete_facts([FactId(f"fact-{n}") for n in range(5, 45)])
    before = _state(path)
    child = multiprocessing.get_context("spawn").Process(target=dying, args=(str(path),))
    child.start()
    child.join(60)
    assert child.exitcode == DIED
    assert _state(path) == before
    for query in ([0.0, 0.0, 1.0], [0.7, -0.2, 0.1]):
        found = await ranked(path, query)
        assert found == truth(path, query)
        assert not any(f.startswith("fact-1") and len(f) == 9 for f in found)  # no fact-1xxx
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(95)], vectors(1, seed=95))
    query = [0.1, 0.3, 0.9]
    assert await ranked(path, query) == truth(path, query)
