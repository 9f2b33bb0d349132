"""Per-partition vector logs: chunk rows that open a store in a few reads, moved with the facts.

Each test checks what a freshly opened store ranks against the exact ranking of what the
fact rows hold, after the kinds of change a log must follow: writes by another store,
deletions, retirements, new vectors, a new embedding space, a transaction rolled back after
its append, a damaged or missing log, and mostly-dead logs.
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.codec import vector_blob
from eden_memory.adapters.stores.sqlite.connection import connect
from eden_memory.adapters.stores.sqlite.facts.rows import INSERT_FACT, fact_key, insert_params
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.adapters.stores.sqlite.vectors.log_writes import VectorLogWriter
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import FactVisibility, Scope

T0 = datetime(2026, 2, 1, tzinfo=UTC)
A, U = AgentId("agent"), UserId("user")
VIEWER = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))
SPACE = EmbeddingSpace("m", 3)
USER_KEY = ("agent", "user", "user")


def fact(n: int, user: UserId | None = U, space: EmbeddingSpace = SPACE) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content=f"fact number {n}",
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=A,
        user_id=user,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model=space.model,
        embedding_dim=space.dimension,
    )


def vectors(count: int, seed: int = 1) -> list[list[float]]:
    rows = np.random.default_rng(seed).standard_normal((count, 3))
    return [[float(x) for x in row] for row in rows]


def truth(path: Path, query: list[float], space: EmbeddingSpace = SPACE) -> list[str]:
    """The exact top 10 of what the fact rows hold (active, of the space, visible)."""
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT id, vector FROM facts WHERE status = 'active' AND vec_model = ? "
            "AND agent_id = 'agent' AND (scope = 'agent' OR owner = 'user')",
            (space.model,),
        ).fetchall()
    matrix = np.array([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    scores = matrix @ (np.array(query) / np.linalg.norm(query))
    return [rows[i][0] for i in np.argsort(-scores, kind="stable")[:10]]


async def ranked(path: Path, query: list[float], space: EmbeddingSpace = SPACE) -> list[str]:
    """What a store opened now ranks first (the store loads the partitions afresh)."""
    async with await open_sqlite(path) as store:
        hits = await store.ranking.semantic_ranking(query, VIEWER, 10, space=space)
    return [h.id for h in hits]


def the_row(path: Path, key: tuple[str, str, str] = USER_KEY) -> tuple[int, int, int]:
    """(stamp, chunks, rows written) of the partition's log, from its row."""
    with sqlite3.connect(path) as raw:
        found = raw.execute(
            "SELECT seq, chunks, written FROM vector_logs WHERE agent_id = ? AND scope = ? "
            "AND owner = ?",
            key,
        ).fetchone()
    assert found is not None
    return (int(found[0]), int(found[1]), int(found[2]))


def on_disk(path: Path) -> bytes:
    return path.read_bytes()


def chunk_rows(path: Path, key: tuple[str, str, str] = USER_KEY) -> int:
    with sqlite3.connect(path) as raw:
        (count,) = raw.execute(
            "SELECT COUNT(*) FROM vector_chunks WHERE agent_id = ? AND scope = ? AND owner = ?",
            key,
        ).fetchone()
    return int(count)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


async def test_adding_facts_appends_them_to_the_log_a_new_store_opens_from(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(20)], vectors(20))
        await store.facts.add_facts([fact(20)], vectors(1, seed=2))
    assert the_row(path)[1:] == (2, 21)  # both writes appended, no search needed
    query = [1.0, 0.2, -0.3]
    expected = truth(path, query)
    # Proof the log is what is read: relabel the rows' space behind the store's back (no
    # stamp moves). Read from the rows, the partition would now be empty.
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")
    assert await ranked(path, query) == expected


async def test_deletions_retirements_and_new_vectors_reach_the_log(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(30)], vectors(30))
        await store.fact_records.delete_facts([FactId("fact-3"), FactId("fact-7")])
        retired = fact(5).model_copy(update={"status": FactStatus.RETIRED})
        await store.facts.update_fact(retired, None, 1)
        await store.facts.update_fact(fact(9), [1.0, 0.0, 0.0], 1)  # a new vector
        await store.facts.update_fact(fact(11, user=None), None, 1)  # moved to the agent's key
    for query in ([1.0, 0.0, 0.0], [0.3, -1.0, 0.2], [-0.5, 0.5, 1.0]):
        assert await ranked(path, query) == truth(path, query)


async def test_writes_by_another_store_are_replayed_after_the_log(path: Path) -> None:
    async with (
        await open_sqlite(path) as first,
        await open_sqlite(path) as second,
    ):
        await first.facts.add_facts([fact(n) for n in range(10)], vectors(10))
        await first.ranking.semantic_ranking([1.0, 0, 0], VIEWER, 5, space=SPACE)
        await second.facts.add_facts([fact(n) for n in range(10, 20)], vectors(10, seed=3))
        await second.fact_records.delete_facts([FactId("fact-2")])
        query = [0.1, 0.9, 0.4]
        assert [
            h.id for h in await first.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE)
        ] == (truth(path, query))
    assert await ranked(path, query) == truth(path, query)


async def test_an_append_whose_transaction_rolled_back_leaves_no_chunk(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(5)], vectors(5))
    before = the_row(path), chunk_rows(path)
    # A writer whose transaction appended to the log, then rolled back.
    conn = connect(path)
    conn.execute("BEGIN IMMEDIATE")
    changes = Changes(conn, VectorLogWriter("float16"))
    ghost = fact(99)
    seq = changes.facts(fact_key(ghost))
    conn.execute(INSERT_FACT, insert_params(ghost, vector_blob([0.0, 0.0, 1.0]), seq))
    changes.flush()
    assert chunk_rows(path) == before[1]  # not committed: other connections see nothing
    conn.execute("ROLLBACK")
    conn.close()
    assert (the_row(path), chunk_rows(path)) == before
    assert "fact-99" not in await ranked(path, [0.0, 0.0, 1.0])
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(5, 9)], vectors(4, seed=4))
    query = [0.2, 0.1, 1.0]
    assert await ranked(path, query) == truth(path, query)


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE vector_chunks SET rows = substr(rows, 1, 10)",
        "UPDATE vector_chunks SET ids = CAST(x'ff00' AS BLOB)",
        "UPDATE vector_chunks SET count = 'many'",
        "DELETE FROM vector_chunks",
        "UPDATE vector_logs SET written = written + 1",
        "UPDATE vector_logs SET dim = 'three'",
        "DELETE FROM vector_logs",
    ],
)
async def test_a_damaged_or_missing_log_is_read_from_the_rows_and_built_again(
    path: Path, damage: str
) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(12)], vectors(12))
        await store.facts.add_facts([fact(12)], vectors(1, seed=3))
    with sqlite3.connect(path) as raw:
        raw.execute(damage)
    query = [0.5, 0.5, -1.0]
    expected = truth(path, query)
    assert await ranked(path, query) == expected
    assert the_row(path)[1:] == (1, 13)  # built anew by that search's writer, in one chunk
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")  # the next store reads the log
    assert await ranked(path, query) == expected


async def test_a_new_embedding_space_drops_the_old_logs(path: Path) -> None:
    other = EmbeddingSpace("m2", 3)
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(6)], vectors(6))
        await store.fact_records.reembed_facts(
            other, {FactId(f"fact-{n}"): v for n, v in enumerate(vectors(6, seed=9))}
        )
    query = [1.0, -1.0, 0.0]
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM vector_logs").fetchone() == (0,)
    assert await ranked(path, query, other) == truth(path, query, other)
    assert the_row(path)[2] == 6  # built by that search's writer, in the new space


async def test_a_log_of_mostly_dead_rows_is_compacted_after_a_search(path: Path) -> None:
    count = 6000
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(count)], vectors(count))
        await store.fact_records.delete_facts([FactId(f"fact-{n}") for n in range(count - 10)])
    assert the_row(path)[1:] == (2, count)  # the facts, then their removal
    query = [0.0, 1.0, 1.0]
    assert await ranked(path, query) == truth(path, query)
    assert the_row(path)[1:] == (1, 10)  # compacted by the writer after that search
    assert await ranked(path, query) == truth(path, query)


async def test_an_upgraded_version_6_file_keeps_its_facts_and_gains_logs(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(8)], vectors(8))
    with sqlite3.connect(path) as raw:  # as version 6 left it
        raw.execute("DROP TABLE vector_logs")
        raw.execute("DROP TABLE vector_chunks")
        raw.execute(
            "CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts WHEN new.status = 'active' "
            "BEGIN INSERT INTO facts_fts (rowid, content) VALUES (new.pk, new.content); END"
        )
        raw.execute("PRAGMA user_version = 6")
    query = [0.3, 0.3, 0.3]
    async with await open_sqlite(path) as store:
        assert len(await store.ranking.keyword_ranking("number", VIEWER, 20)) == 8
        await store.facts.add_facts([fact(8)], vectors(1, seed=5))
        hits = await store.ranking.keyword_ranking("number", VIEWER, 20)
        assert len(hits) == 9  # indexed once: by the store, not also by the old trigger
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        names = {n for (n,) in raw.execute("SELECT name FROM sqlite_master")}
        assert "facts_fts_insert" not in names
        assert "vector_files" not in names
        assert raw.execute("SELECT COUNT(*) FROM facts").fetchone() == (9,)
        assert raw.execute("SELECT COUNT(*) FROM vector_logs").fetchone() == (0,)
    assert await ranked(path, query) == truth(path, query)
    assert the_row(path)[2] == 9  # the first search had the log built


async def test_a_partition_left_without_facts_keeps_no_chunk(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(4)], vectors(4))
        await store.facts.add_facts([fact(9, user=None)], vectors(1, seed=7))
        await store.fact_records.delete_facts([FactId(f"fact-{n}") for n in range(4)])
        assert chunk_rows(path) == 0  # the user's vectors are gone from the file
        assert the_row(path)[1:] == (0, 0)  # an empty log, still followed
        assert chunk_rows(path, ("agent", "agent", "")) == 1
        assert [
            h.id for h in await store.ranking.semantic_ranking([1, 0, 0], VIEWER, 5, space=SPACE)
        ] == ["fact-9"]
        await store.facts.add_facts([fact(5)], vectors(1, seed=8))
    assert the_row(path)[1:] == (1, 1)
    query = [0.6, 0.1, 0.2]
    assert await ranked(path, query) == truth(path, query)


async def test_an_unchanged_partition_keeps_its_log_past_the_tombstone_floor(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(10)], vectors(10))
    query = [0.4, -0.2, 0.9]
    expected = truth(path, query)
    with sqlite3.connect(path) as raw:  # as after 10^9 writes elsewhere: old tombstones pruned
        raw.execute("UPDATE counters SET value = 1000000000 WHERE name = 'tombstone_floor'")
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")  # read from the rows: empty
    assert await ranked(path, query) == expected  # nothing to replay, so the log holds


async def test_after_a_scrub_no_chunk_holds_a_deleted_facts_vector(path: Path) -> None:
    rows = vectors(10)
    unit = np.array(rows[4], dtype=np.float32)
    gone = (unit / np.linalg.norm(unit)).astype(np.float16).tobytes()
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(10)], rows)
        await store.fact_records.delete_facts([FactId("fact-4")])
        with sqlite3.connect(path) as raw:
            blobs = b"".join(r[0] for r in raw.execute("SELECT rows FROM vector_chunks"))
        assert gone in blobs  # a dead row, until the log is compacted
        await store.revisions.scrub()
        query = [0.1, -0.4, 0.8]
        found = await store.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE)
        assert [h.id for h in found] == truth(path, query)
    assert gone not in on_disk(path)
    assert the_row(path)[1:] == (1, 9)


def log_count(path: Path) -> int:
    with sqlite3.connect(path) as raw:
        (count,) = raw.execute("SELECT COUNT(*) FROM vector_logs").fetchone()
    return int(count)


async def test_a_search_writes_no_log_and_the_writer_builds_it_after_its_next_write(
    path: Path,
) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(3)], vectors(3))
    with sqlite3.connect(path) as raw:
        raw.execute("DELETE FROM vector_chunks")
        raw.execute("DELETE FROM vector_logs")
    async with await open_sqlite(path) as store:
        await store.ranking.semantic_ranking([1.0, 0.0, 0.0], VIEWER, 10, space=SPACE)
        await asyncio.sleep(0.05)  # nothing was scheduled behind the search
        assert log_count(path) == 0
        await store.facts.add_facts([fact(3)], vectors(1, seed=2))
        assert the_row(path)[1:] == (1, 4)  # built from the rows once the write committed
