"""Replaying a vector file's log: which rows stay live, and files of many small entries.

Opening a store builds no dictionary of ids when every row of the log is live (a million
entries took ~0.9 s); otherwise the replay keeps each id's last row unless a later entry
removed it. A file of many entries (one per single-fact write) is rewritten by a search.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite, vector_index
from eden_memory.adapters.stores.sqlite.vector_file import live_rows
from eden_memory.adapters.stores.sqlite.vector_file_rows import file_row
from tests.unit.adapters.sqlite.test_sqlite_vector_files import (
    USER_KEY,
    fact,
    ranked,
    the_row,
    truth,
    vectors,
)

ids = st.sampled_from(["a", "b", "c", "d", "e"])
# Each entry: the ids it removes, then the ids it writes (as chunks are).
entries = st.lists(st.tuples(st.lists(ids, max_size=3), st.lists(ids, max_size=3)), max_size=8)


@given(entries)
def test_the_live_rows_are_each_ids_last_write_not_removed_after(
    log: list[tuple[list[str], list[str]]],
) -> None:
    order: list[str] = []
    removals: list[tuple[int, list[str]]] = []
    expected: dict[str, int] = {}
    for removed, written in log:
        if removed:
            removals.append((len(order), removed))
        for gone in removed:
            expected.pop(gone, None)
        for fact_id in written:
            expected[fact_id] = len(order)
            order.append(fact_id)
    assert live_rows(order, removals).tolist() == sorted(expected.values())


def test_a_removal_between_two_writes_of_an_id_keeps_the_second() -> None:
    order = ["a", "b", "a"]
    assert live_rows(order, [(2, ["a"])]).tolist() == [1, 2]
    assert live_rows(order, [(3, ["a"])]).tolist() == [1]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


async def test_a_file_of_many_small_entries_is_rewritten_by_a_search(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vector_index, "COMPACT_CHUNKS", 4)
    async with await open_sqlite(path) as store:
        for n in range(6):  # one entry each
            await store.facts.add_facts([fact(n)], vectors(1, seed=n))
    with sqlite3.connect(path) as raw:
        before = file_row(raw, USER_KEY, "float32") or file_row(raw, USER_KEY, "float16")
    assert before is not None
    query = [0.2, 0.9, -0.4]
    assert await ranked(path, query) == truth(path, query)
    with sqlite3.connect(path) as raw:
        after = file_row(raw, USER_KEY, before.dtype)
    assert after is not None
    assert after.token != before.token  # the search's snapshot replaced it, as one entry
    assert after.bytes < before.bytes
    assert the_row(path)[2] == 6
    assert await ranked(path, query) == truth(path, query)
