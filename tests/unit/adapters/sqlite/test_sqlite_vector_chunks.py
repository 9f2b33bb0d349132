"""Replaying and merging a vector log's chunks, and the short logs of one-fact writes.

Opening a store builds no dictionary of ids when every row of the log is live (a million
entries took ~0.9 s); otherwise the replay keeps each id's last row unless a later entry
removed it. The writer merges a log's small trailing chunks as they come, so a partition
written one fact at a time still opens from a few chunks; a merge must replay as the chunks
it replaces did, after whatever came before them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.vectors.chunks import Entry, live_rows, merge
from eden_memory.adapters.stores.sqlite.vectors.log_appends import FAN, size_class
from eden_memory.domain.ids import FactId
from tests.unit.adapters.sqlite.test_sqlite_vector_logs import (
    fact,
    ranked,
    the_row,
    truth,
    vectors,
)

ids = st.sampled_from(["a", "b", "c", "d", "e"])
# Each entry: the ids it removes, then the ids it writes (as chunks are).
entries = st.lists(st.tuples(st.lists(ids, max_size=3), st.lists(ids, max_size=3)), max_size=8)


def plain_replay(log: list[tuple[list[str], list[str]]]) -> dict[str, int]:
    """Each live id's row (its position among every row written), by the rule itself."""
    live: dict[str, int] = {}
    at = 0
    for removed, written in log:
        for gone in removed:
            live.pop(gone, None)
        for fact_id in written:
            live[fact_id] = at
            at += 1
    return live


@given(entries)
def test_the_live_rows_are_each_ids_last_write_not_removed_after(
    log: list[tuple[list[str], list[str]]],
) -> None:
    order: list[str] = []
    removals: list[tuple[int, list[str]]] = []
    for removed, written in log:
        if removed:
            removals.append((len(order), removed))
        order.extend(written)
    assert live_rows(order, removals).tolist() == sorted(plain_replay(log).values())


def test_a_removal_between_two_writes_of_an_id_keeps_the_second() -> None:
    order = ["a", "b", "a"]
    assert live_rows(order, [(2, ["a"])]).tolist() == [1, 2]
    assert live_rows(order, [(3, ["a"])]).tolist() == [1]


def _entry(removed: list[str], written: list[str], first_row: int) -> Entry:
    """Rows that name where they were written (row i holds the number i)."""
    rows = np.arange(first_row, first_row + len(written), dtype=np.float32)[:, None]
    return Entry(removed, written, rows)


@given(before=entries, merged=entries.filter(bool))
def test_a_merged_entry_replays_as_the_entries_it_replaces(
    before: list[tuple[list[str], list[str]]], merged: list[tuple[list[str], list[str]]]
) -> None:
    """What each id holds after ``before`` then ``merged``, with ``merged`` as they are or
    merged into one."""
    at = sum(len(w) for _, w in before)
    parts = []
    for removed, written in merged:
        parts.append(_entry(removed, written, at))
        at += len(written)
    one = merge(parts)
    expected = plain_replay(before + merged)
    values = dict(zip(one.ids, one.rows[:, 0].astype(int).tolist(), strict=True))
    replayed = plain_replay([*before, (one.removed, one.ids)])
    start = sum(len(w) for _, w in before)
    got = {
        i: (values[i] if row >= start else row)  # a row of ``before``, or the merge's value
        for i, row in replayed.items()
    }
    assert got == expected


def test_size_classes_reach_a_full_chunk_in_three_merges() -> None:
    assert [size_class(n) for n in (0, 1, 15, 16, 255, 256, 4095, 4096, 10_000)] == [
        0,
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert FAN**3 == 4096


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


async def test_one_fact_at_a_time_keeps_the_log_short_and_exact(path: Path) -> None:
    count = 300
    async with await open_sqlite(path) as store:
        for n in range(count):
            await store.facts.add_facts([fact(n)], vectors(1, seed=n))
            if n % 7 == 6:  # a removal now and then, in its own chunk
                await store.fact_records.delete_facts([FactId(f"fact-{n - 3}")])
    _, chunks, written = the_row(path)
    assert chunks <= 3 * (FAN - 1)  # 342 entries (300 writes, 42 removals) merged by 16s
    assert count - 42 <= written < count  # a merge drops the rows removed within it
    with sqlite3.connect(path) as raw:
        classes = [
            size_class(c)
            for (c,) in raw.execute(
                "SELECT count FROM vector_chunks WHERE scope = 'user' ORDER BY chunk_no"
            )
        ]
    assert len(classes) == chunks
    assert not any(len(set(classes[i : i + FAN])) == 1 for i in range(len(classes) - FAN + 1))
    for query in ([0.2, 0.9, -0.4], [1.0, 0.0, 0.0]):
        assert await ranked(path, query) == truth(path, query)
