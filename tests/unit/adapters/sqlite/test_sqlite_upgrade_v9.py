"""A store of schema version 9, its vectors in files beside it, upgrades without loss.

``fixtures/v9`` is a store made by the release before vectors moved into the file (commit
da54c69, by ``fixtures/make_v9_store.py``): facts of four partitions, deleted, retired, moved
and re-embedded ones among them, vector files in float16 and float32, in float16 only, and
none (a scrub dropped them); reflections, blobs and a session. ``answers.json`` is what that
release answered from it. Opened now, in either precision, the store answers the same, and
its vectors live in chunk rows built from the fact rows; the files are gone.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.adapters.stores.sqlite.vectors.scan import Precision
from tests.unit.adapters.sqlite.fixtures.make_v9_store import answers

FIXTURE = Path(__file__).parent / "fixtures" / "v9"
EXPECTED: dict[str, Any] = json.loads((FIXTURE / "answers.json").read_text())


@pytest.fixture
def path(tmp_path: Path) -> Path:
    shutil.copy(FIXTURE / "memory.db", tmp_path / "memory.db")
    shutil.copytree(FIXTURE / "memory.db.vectors", tmp_path / "memory.db.vectors")
    return tmp_path / "memory.db"


def same_answers(found: dict[str, Any], expected: dict[str, Any]) -> None:
    """Equal, but for the last digit of a score (float32 sums in another order)."""
    assert found.keys() == expected.keys()
    for name, value in expected.items():
        if not name.startswith("semantic"):
            assert found[name] == value, name
            continue
        for got, want in zip(found[name], value, strict=True):
            assert [h[0] for h in got] == [h[0] for h in want], name
            assert [h[1] for h in got] == pytest.approx([h[1] for h in want], abs=2e-5)


def active_facts(path: Path) -> dict[tuple[str, str], int]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT scope, owner, COUNT(*) FROM facts WHERE status = 'active' GROUP BY 1, 2"
        ).fetchall()
    return {(scope, owner): count for scope, owner, count in rows}


def logs(path: Path) -> dict[tuple[str, str, str], tuple[int, int]]:
    """(scope, owner, type) -> (rows written, rows in its chunks)."""
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT l.scope, l.owner, l.dtype, l.written, "
            "(SELECT coalesce(sum(count), 0) FROM vector_chunks c WHERE c.agent_id = l.agent_id "
            "AND c.scope = l.scope AND c.owner = l.owner AND c.dtype = l.dtype) FROM vector_logs l"
        ).fetchall()
    return {(s, o, d): (w, c) for s, o, d, w, c in rows}


@pytest.mark.parametrize("precision", ["half", "single"])
async def test_a_version_9_store_answers_as_its_release_did(
    path: Path, precision: Precision
) -> None:
    async with await open_sqlite(path, vector_precision=precision) as stores:
        same_answers(await answers(stores), EXPECTED)
    async with await open_sqlite(path, vector_precision=precision) as stores:
        same_answers(await answers(stores), EXPECTED)  # and again, from the logs


async def test_each_vector_file_becomes_a_log_built_from_the_fact_rows(path: Path) -> None:
    counts = active_facts(path)
    async with await open_sqlite(path, vector_precision="half"):
        pass
    assert not path.with_name("memory.db.vectors").exists()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        tables = {n for (n,) in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "vector_files" not in tables
    agent, user, user_2 = (counts[k] for k in (("agent", ""), ("user", "user"), ("user", "user-2")))
    assert logs(path) == {
        ("agent", "", "float16"): (agent, agent),
        ("agent", "", "float32"): (agent, agent),
        ("user", "user", "float16"): (user, user),
        ("user", "user", "float32"): (user, user),
        ("user", "user-2", "float16"): (user_2, user_2),
    }  # user-3 had no file: its first search has its log built
    # The searches read the logs: relabelled, the fact rows would give nothing to rank.
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE facts SET vec_model = 'elsewhere'")
    async with await open_sqlite(path, vector_precision="half") as stores:
        found = await answers(stores)
    for viewer in ("user", "user-2"):
        assert [[h[0] for h in q] for q in found[f"semantic {viewer}"]] == [
            [h[0] for h in q] for q in EXPECTED[f"semantic {viewer}"]
        ]
