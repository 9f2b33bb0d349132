"""A vector chunk restored by a power loss is never answered from (issue 27).

The exact scenario: a writer appends a chunk past the file's valid length, then dies before
its COMMIT; the next commit writes its own chunk of the same size at the same place; a power
loss with write reordering keeps that commit in the database but the dead writer's bytes in
the file. The stale chunk has a valid CRC of its own, the row's length and row count, and
even the stamp the commit drew (the counter rolled back with the dead writer). Before the
fix, every search touching it in half precision raised ``KeyError: 'fact-98'`` (re-scoring
looks the ghost up in the rows), and in single precision returned ``fact-98``, never
committed, instead of ``fact-99``. The row now keeps a digest of the chunks it vouches for.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.codec import vector_blob
from eden_memory.adapters.stores.sqlite.connection import connect
from eden_memory.adapters.stores.sqlite.fact_rows import INSERT_FACT, fact_key, insert_params
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.scan import Precision
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.adapters.stores.sqlite.vector_file import VectorFolder
from eden_memory.adapters.stores.sqlite.vector_file_rows import file_path, file_row
from tests.unit.adapters.sqlite.test_sqlite_vector_files import (
    SPACE,
    USER_KEY,
    VIEWER,
    fact,
    truth,
    vectors,
)

GHOST, REAL = [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]
DTYPES: dict[Precision, type[np.floating]] = {"half": np.float16, "single": np.float32}


def _die_before_commit(path: Path, dtype: type[np.floating]) -> bytes:
    """A writer appends fact-98's chunk, then dies before COMMIT; the bytes it left past the
    valid length are returned (what a power loss may bring back)."""
    folder = VectorFolder(path.with_name(path.name + ".vectors"), dtype)
    with sqlite3.connect(path) as raw:
        row = file_row(raw, USER_KEY, folder.dtype_name)
    assert row is not None
    conn = connect(path)
    conn.vector_folder = folder
    conn.execute("BEGIN IMMEDIATE")
    changes = Changes(conn)
    ghost = fact(98)
    conn.execute(
        INSERT_FACT, insert_params(ghost, vector_blob(GHOST), changes.facts(fact_key(ghost)))
    )
    changes.flush()
    conn.execute("ROLLBACK")
    conn.close()
    return file_path(folder, USER_KEY, row.dtype).read_bytes()[row.bytes :]


async def _ranked(path: Path, precision: Precision, query: list[float]) -> list[str]:
    async with await open_sqlite(path, vector_precision=precision) as store:
        hits = await store.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE)
    return [h.id for h in hits]


@pytest.mark.parametrize("precision", ["half", "single"])
async def test_a_stale_chunk_restored_under_a_commit_is_never_answered_from(
    tmp_path: Path, precision: Precision
) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path, vector_precision=precision) as store:
        await store.facts.add_facts([fact(n) for n in range(5)], vectors(5))
    folder = VectorFolder(path.with_name(path.name + ".vectors"), DTYPES[precision])
    with sqlite3.connect(path) as raw:
        valid = file_row(raw, USER_KEY, folder.dtype_name)
    assert valid is not None
    stale = _die_before_commit(path, folder.dtype)
    async with await open_sqlite(path, vector_precision=precision) as store:
        await store.facts.add_facts([fact(99)], [REAL])  # its chunk overwrites the stale one
    target = file_path(folder, USER_KEY, folder.dtype_name)
    committed = target.read_bytes()
    assert len(committed) == valid.bytes + len(stale)  # same place, same size
    assert committed[valid.bytes :] != stale
    target.write_bytes(committed[: valid.bytes] + stale)  # the power loss

    for query in (GHOST, REAL):
        found = await _ranked(path, precision, query)
        assert "fact-98" not in found
        assert found == truth(path, query)
    with sqlite3.connect(path) as raw:
        rewritten = file_row(raw, USER_KEY, folder.dtype_name)
    assert rewritten is not None
    assert rewritten.token != valid.token  # the search wrote the partition to a new file
    assert await _ranked(path, precision, REAL) == truth(path, REAL)


@pytest.mark.parametrize("seed", range(8))
async def test_flipped_bits_in_a_vector_file_never_change_an_answer(
    tmp_path: Path, seed: int
) -> None:
    """Header, chunk headers, ids or rows: the file is read from the rows instead."""
    path = tmp_path / "memory.db"
    async with await open_sqlite(path, vector_precision="single") as store:
        for batch in range(4):  # a file of several chunks
            facts = [fact(n) for n in range(batch * 5, batch * 5 + 5)]
            await store.facts.add_facts(facts, vectors(5, seed=batch))
    target = file_path(
        VectorFolder(path.with_name(path.name + ".vectors"), np.float32), USER_KEY, "float32"
    )
    data = bytearray(target.read_bytes())
    chance = random.Random(seed)
    for _ in range(1 + seed % 3):
        data[chance.randrange(len(data))] ^= 1 << chance.randrange(8)
    target.write_bytes(bytes(data))
    for query in ([1.0, 0.0, 0.0], [0.2, -0.7, 0.4]):
        assert await _ranked(path, "single", query) == truth(path, query)


async def test_a_version_8_file_is_upgraded_and_its_vector_files_written_anew(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    async with await open_sqlite(path, vector_precision="single") as store:
        await store.facts.add_facts([fact(n) for n in range(6)], vectors(6))
    with sqlite3.connect(path) as raw:  # as version 8 left it: no digest
        raw.execute("ALTER TABLE vector_files DROP COLUMN digest")
        raw.execute("PRAGMA user_version = 8")
        (old_token,) = raw.execute("SELECT token FROM vector_files").fetchone()
    query = [0.5, 0.1, -0.3]
    assert await _ranked(path, "single", query) == truth(path, query)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        (token, digest) = raw.execute("SELECT token, digest FROM vector_files").fetchone()
    assert token != old_token  # the search wrote the partition to a new file
    assert len(digest) == 16
