"""Keyword search reads how many facts are indexed from FTS5's running total, not a count.

The total must equal a count of the index after any sequence of writes, including the
pruning threshold's edge; and reading it must not depend on how many facts there are.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.keyword.partitions import (
    PK_BITS,
    number_partitions,
    rebuild,
)
from eden_memory.adapters.stores.sqlite.keyword.scoring import first_varint, indexed_facts
from eden_memory.adapters.stores.sqlite.schema import prepare
from tests.unit.adapters.sqlite.test_sqlite_keyword import VIEWER, fact

Write = tuple[str, int, str]
WRITES = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "retire", "delete"]),
        st.integers(0, 12),
        st.sampled_from(["alpha beta", "beta gamma", "gamma", "kayak trip in May"]),
    ),
    max_size=40,
)


@pytest.fixture
def conn() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    prepare(connection)
    yield connection
    connection.close()


def _apply(conn: sqlite3.Connection, write: Write) -> None:
    kind, pk, content = write
    if kind == "add":
        added = conn.execute(
            "INSERT OR IGNORE INTO facts (pk, id, agent_id, scope, owner, status, content, "
            "content_hash, formed_us, version, seq, access_count, vec_model, vec_dim, vector, "
            "doc) VALUES (?, ?, 'a', 'agent', '', 'active', ?, ?, 0, 1, 1, 0, 'm', 1, x'', '{}')",
            (pk, f"f{pk}", content, f"h{pk}"),
        ).rowcount
        if added:  # as the store indexes what it adds (schema version 7: no insert trigger)
            number = number_partitions(conn, [("a", "agent", "")])[("a", "agent", "")]
            conn.execute(
                "INSERT INTO facts_fts (rowid, content) VALUES (?, ?)",
                ((number << PK_BITS) | pk, content),
            )
    elif kind == "edit":
        conn.execute("UPDATE facts SET content = ? WHERE pk = ?", (content, pk))
    elif kind == "retire":
        conn.execute("UPDATE facts SET status = 'retired' WHERE pk = ?", (pk,))
    else:
        conn.execute("DELETE FROM facts WHERE pk = ?", (pk,))


def _counted(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM facts_fts_docsize").fetchone()[0])


def test_an_empty_index_holds_no_facts(conn: sqlite3.Connection) -> None:
    assert indexed_facts(conn) == 0


@settings(max_examples=60, deadline=None)
@given(writes=WRITES, in_transactions=st.booleans())
def test_the_running_total_equals_a_count_after_any_writes(
    writes: list[Write], in_transactions: bool
) -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    prepare(conn)
    for start in range(0, len(writes), 5):
        if in_transactions:
            conn.execute("BEGIN")
        for write in writes[start : start + 5]:
            _apply(conn, write)
        if in_transactions:
            conn.execute("COMMIT")
        assert indexed_facts(conn) == _counted(conn)
    rebuild(conn)
    assert indexed_facts(conn) == _counted(conn)
    conn.close()


def test_a_large_total_is_read_in_full(conn: sqlite3.Connection) -> None:
    for pk in range(1, 1200):  # past 127 and 16383 take longer varints; past the prune floor
        _apply(conn, ("add", pk, "word"))
    assert indexed_facts(conn) == 1199 == _counted(conn)


def _varint(value: int) -> bytes:
    """SQLite's encoding, written independently of the decoder under test."""
    if value > (1 << 56) - 1:
        head, last = value >> 8, value & 0xFF
        groups = [(head >> (7 * i)) & 0x7F for i in reversed(range(8))]
        return bytes(g | 0x80 for g in groups) + bytes([last])
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append(value & 0x7F)
        value >>= 7
    groups.reverse()
    return bytes(g | 0x80 for g in groups[:-1]) + bytes(groups[-1:])


@given(value=st.integers(0, (1 << 64) - 1), tail=st.binary(max_size=4))
def test_varints_decode_as_sqlite_writes_them(value: int, tail: bytes) -> None:
    assert first_varint(_varint(value) + tail) == value


def test_a_truncated_varint_is_refused() -> None:
    with pytest.raises(ValueError, match="truncated"):
        first_varint(b"\x81\x80")


@pytest.mark.parametrize("counted", [1, 2, 3, 1000, 2**40])  # 0: FTS5 says "malformed"
async def test_a_running_total_that_disagrees_with_the_index_still_scores_soundly(
    tmp_path: Path, counted: int
) -> None:
    # Issue 40, item 6: a write that lowered FTS5's total below the facts holding a word made
    # the score take the log of a negative number (and FTS5's own bm25() give NaN, read back
    # as NULL). Whatever total the index reports, every score is finite and 0 or more.
    path = tmp_path / "memory.db"
    stores = await open_sqlite(path)
    facts = [fact(n, f"Alice {word}") for n, word in enumerate(["tea", "chess", "cats", "Lyon"])]
    await stores.facts.add_facts(facts, [[1.0, 0.0]] * len(facts))
    await stores.close()
    raw = sqlite3.connect(path)
    (block,) = raw.execute("SELECT block FROM facts_fts_data WHERE id = 1").fetchone()
    rest = block[len(_varint(first_varint(block))) :]
    raw.execute("UPDATE facts_fts_data SET block = ? WHERE id = 1", (_varint(counted) + rest,))
    raw.commit()
    raw.close()
    stores = await open_sqlite(path)
    try:
        for query in ("Alice", "Alice tea", "Alice tea chess cats Lyon"):
            hits = await stores.ranking.keyword_ranking(query, VIEWER, 10)
            assert {h.id for h in hits} <= {f.id for f in facts}
            assert all(math.isfinite(h.score) and h.score >= 0 for h in hits)
            assert all(h.coverage is None or 0 <= h.coverage <= 1 for h in hits)
    finally:
        await stores.close()
