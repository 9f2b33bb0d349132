"""Per-partition vector files: a cache that opens a store in one read, never trusted blindly.

Each test checks what a freshly opened store ranks against the exact ranking of what the
fact rows hold, after the kinds of change a file can miss: writes by another store,
deletions, retirements, new vectors, a new embedding space, a crash between the append
and the commit, a damaged or missing file, and mostly-dead files.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.codec import vector_blob
from eden_memory.adapters.stores.sqlite.connection import connect
from eden_memory.adapters.stores.sqlite.fact_rows import INSERT_FACT, fact_key, insert_params
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.adapters.stores.sqlite.vector_file import VectorFolder
from eden_memory.adapters.stores.sqlite.vector_file_rows import file_path, file_row
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
    """(stamp, valid bytes, rows written) of the partition's file, from its SQLite row."""
    with sqlite3.connect(path) as raw:
        found = raw.execute(
            "SELECT seq, bytes, written FROM vector_files WHERE agent_id = ? AND scope = ? "
            "AND owner = ?",
            key,
        ).fetchone()
    assert found is not None
    return (int(found[0]), int(found[1]), int(found[2]))


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


async def test_adding_facts_appends_them_to_the_file_a_new_store_opens_from(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(20)], vectors(20))
        await store.facts.add_facts([fact(20)], vectors(1, seed=2))
    assert the_row(path)[2] == 21  # both writes appended, no search needed
    query = [1.0, 0.2, -0.3]
    expected = truth(path, query)
    # Proof the file is what is read: relabel the rows' space behind the store's back (no
    # stamp moves). Read from the rows, the partition would now be empty.
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")
    assert await ranked(path, query) == expected


async def test_deletions_retirements_and_new_vectors_reach_the_file(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(30)], vectors(30))
        await store.facts.delete_facts([FactId("fact-3"), FactId("fact-7")])
        retired = fact(5).model_copy(update={"status": FactStatus.RETIRED})
        await store.facts.update_fact(retired, None, 1)
        await store.facts.update_fact(fact(9), [1.0, 0.0, 0.0], 1)  # a new vector
        await store.facts.update_fact(fact(11, user=None), None, 1)  # moved to the agent's key
    for query in ([1.0, 0.0, 0.0], [0.3, -1.0, 0.2], [-0.5, 0.5, 1.0]):
        assert await ranked(path, query) == truth(path, query)


async def test_writes_by_another_store_are_replayed_after_the_file(path: Path) -> None:
    async with (
        await open_sqlite(path) as first,
        await open_sqlite(path) as second,
    ):
        await first.facts.add_facts([fact(n) for n in range(10)], vectors(10))
        await first.ranking.semantic_ranking([1.0, 0, 0], VIEWER, 5, space=SPACE)
        await second.facts.add_facts([fact(n) for n in range(10, 20)], vectors(10, seed=3))
        await second.facts.delete_facts([FactId("fact-2")])
        query = [0.1, 0.9, 0.4]
        assert [
            h.id for h in await first.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE)
        ] == (truth(path, query))
    assert await ranked(path, query) == truth(path, query)


async def test_an_append_whose_transaction_never_committed_is_ignored(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(5)], vectors(5))
    before = the_row(path)
    # A writer that appended to the file, then died before its commit.
    conn = connect(path)
    conn.vector_folder = VectorFolder(path.with_name(path.name + ".vectors"), np.float16)
    conn.execute("BEGIN IMMEDIATE")
    changes = Changes(conn)
    ghost = fact(99)
    seq = changes.facts(fact_key(ghost))
    conn.execute(INSERT_FACT, insert_params(ghost, vector_blob([0.0, 0.0, 1.0]), seq))
    changes.flush()
    conn.execute("ROLLBACK")
    conn.close()
    assert the_row(path) == before
    assert "fact-99" not in await ranked(path, [0.0, 0.0, 1.0])
    async with await open_sqlite(path) as store:  # the next append overwrites the bytes
        await store.facts.add_facts([fact(n) for n in range(5, 9)], vectors(4, seed=4))
    query = [0.2, 0.1, 1.0]
    assert await ranked(path, query) == truth(path, query)


async def test_a_damaged_or_missing_file_is_read_from_the_rows_and_written_again(
    path: Path,
) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(12)], vectors(12))
    folder = VectorFolder(path.with_name(path.name + ".vectors"), np.float16)
    with sqlite3.connect(path) as raw:
        row = file_row(raw, USER_KEY, "float16")
    assert row is not None
    damaged = bytearray(file_path(folder, USER_KEY, "float16").read_bytes())
    damaged[-3] ^= 0xFF  # one bit of one vector: the chunk's checksum catches it
    file_path(folder, USER_KEY, "float16").write_bytes(bytes(damaged))
    query = [0.5, 0.5, -1.0]
    assert await ranked(path, query) == truth(path, query)
    with sqlite3.connect(path) as raw:
        rewritten = file_row(raw, USER_KEY, "float16")
    assert rewritten is not None
    assert rewritten.token != row.token
    file_path(folder, USER_KEY, "float16").unlink()
    assert await ranked(path, query) == truth(path, query)


async def test_a_new_embedding_space_drops_the_old_files(path: Path) -> None:
    other = EmbeddingSpace("m2", 3)
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(6)], vectors(6))
        await store.facts.reembed_facts(
            other, {FactId(f"fact-{n}"): v for n, v in enumerate(vectors(6, seed=9))}
        )
    query = [1.0, -1.0, 0.0]
    assert await ranked(path, query, other) == truth(path, query, other)
    assert the_row(path)[2] == 6  # written again by that search, in the new space


async def test_a_file_of_mostly_dead_rows_is_rewritten_by_a_search(path: Path) -> None:
    count = 6000
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(count)], vectors(count))
        await store.facts.delete_facts([FactId(f"fact-{n}") for n in range(count - 10)])
    assert the_row(path)[2] == count
    query = [0.0, 1.0, 1.0]
    assert await ranked(path, query) == truth(path, query)
    assert the_row(path)[2] == 10  # the search's snapshot replaced it


async def test_an_upgraded_version_6_file_keeps_its_facts_and_gains_files(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(8)], vectors(8))
    with sqlite3.connect(path) as raw:  # as version 6 left it
        raw.execute("DROP TABLE vector_files")
        raw.execute(
            "CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts WHEN new.status = 'active' "
            "BEGIN INSERT INTO facts_fts (rowid, content) VALUES (new.pk, new.content); END"
        )
        raw.execute("PRAGMA user_version = 6")
    for stale in path.with_name(path.name + ".vectors").iterdir():
        stale.unlink()
    query = [0.3, 0.3, 0.3]
    async with await open_sqlite(path) as store:
        assert len(await store.ranking.keyword_ranking("number", VIEWER, 20)) == 8
        await store.facts.add_facts([fact(8)], vectors(1, seed=5))
        hits = await store.ranking.keyword_ranking("number", VIEWER, 20)
        assert len(hits) == 9  # indexed once: by the store, not also by the old trigger
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        triggers = {
            n for (n,) in raw.execute("SELECT name FROM sqlite_master WHERE type='trigger'")
        }
        assert "facts_fts_insert" not in triggers
        assert raw.execute("SELECT COUNT(*) FROM facts").fetchone() == (9,)
    assert await ranked(path, query) == truth(path, query)
    assert the_row(path)[2] == 9  # the first search wrote the file


async def test_a_partition_left_without_facts_loses_its_file(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(4)], vectors(4))
        await store.facts.add_facts([fact(9, user=None)], vectors(1, seed=7))
        folder = path.with_name(path.name + ".vectors")
        assert len(list(folder.iterdir())) == 2
        await store.facts.delete_facts([FactId(f"fact-{n}") for n in range(4)])
        assert len(list(folder.iterdir())) == 1  # the user's vectors are gone from the disk
        with sqlite3.connect(path) as raw:
            assert raw.execute("SELECT scope FROM vector_files").fetchall() == [("agent",)]
        assert [
            h.id for h in await store.ranking.semantic_ranking([1, 0, 0], VIEWER, 5, space=SPACE)
        ] == ["fact-9"]


async def test_an_unchanged_partition_keeps_its_file_past_the_tombstone_floor(path: Path) -> None:
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([fact(n) for n in range(10)], vectors(10))
    query = [0.4, -0.2, 0.9]
    expected = truth(path, query)
    with sqlite3.connect(path) as raw:  # as after 10^9 writes elsewhere: old tombstones pruned
        raw.execute("UPDATE counters SET value = 1000000000 WHERE name = 'tombstone_floor'")
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")  # read from the rows: empty
    assert await ranked(path, query) == expected  # nothing to replay, so the file holds
