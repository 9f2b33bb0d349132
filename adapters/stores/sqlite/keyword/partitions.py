"""The keyword index laid out by partition (schema version 10), so a search reads only the
entries of the facts it may see.

FTS5 keeps each word's entries in rowid order and seeks along them by rowid. Up to version 9
a fact's rowid was its ``pk``: the facts of every owner interleaved, and a search matched and
scored all of them before the visibility filter dropped most (at 100k facts over 1,000 users,
20k visible, 23 ms where 9 ms was the visible share's cost; docs/record/decisions/stores.md).
From version 10
a fact's rowid is ``number << 32 | pk``, ``number`` being its (agent, scope, owner) partition's
in ``keyword_partitions``: each partition is one range of rowids, and a search
asks FTS5 for the ranges of the visible partitions (``rowid_ranges``).

The index holds what it held (the active facts' text, with the same tokenizer), so BM25's
statistics are unchanged: N and the average length are those of all indexed facts, and
scores and rankings are exactly those of version 9. It is contentless (``content = ''``):
its rowids no longer name a row of ``facts``, and ``bm25()`` never reads the text.

Rowids must rise within a write: FTS5 flushes its pending terms to a new segment whenever
one falls, so a batch is indexed in rowid order (``index_batch``, ``fill``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.decoding import as_int
from eden_memory.adapters.stores.sqlite.keyword.mending import TOKENIZE
from eden_memory.domain.errors import StoreError
from eden_memory.domain.models import Fact

PK_BITS = 32
PK_MASK = (1 << PK_BITS) - 1
# Numbers are never reused: a partition keeps its number after its last fact is gone.
CREATE_PARTITIONS = f"""
CREATE TABLE IF NOT EXISTS keyword_partitions (
    number INTEGER PRIMARY KEY CHECK (number < {1 << (63 - PK_BITS)}),
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    UNIQUE (agent_id, scope, owner)
)
"""
CREATE_INDEX = (
    f"CREATE VIRTUAL TABLE facts_fts USING fts5(content, content = '', tokenize = '{TOKENIZE}')"
)
_NUMBER_OF = (
    "SELECT number FROM keyword_partitions "
    "WHERE agent_id = {r}.agent_id AND scope = {r}.scope AND owner = {r}.owner"
)
# A fact leaves the index under the rowid it entered with, and enters under its new key's.
DELETE_TRIGGER = f"""
CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts WHEN old.status = 'active' BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content)
        VALUES ('delete', (({_NUMBER_OF.format(r="old")}) << {PK_BITS}) | old.pk, old.content);
END
"""
UPDATE_TRIGGER = f"""
CREATE TRIGGER facts_fts_update AFTER UPDATE OF content, status, agent_id, scope, owner ON facts
BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content)
        SELECT 'delete', (({_NUMBER_OF.format(r="old")}) << {PK_BITS}) | old.pk, old.content
        WHERE old.status = 'active';
    INSERT INTO keyword_partitions (agent_id, scope, owner)
        SELECT new.agent_id, new.scope, new.owner WHERE new.status = 'active'
        ON CONFLICT DO NOTHING;
    INSERT INTO facts_fts (rowid, content)
        SELECT (({_NUMBER_OF.format(r="new")}) << {PK_BITS}) | new.pk, new.content
        WHERE new.status = 'active';
END
"""


def partition_keyword_index(conn: sqlite3.Connection) -> None:
    """Schema step 9 → 10: the index made again, keyed by partition, from the active facts.

    Nothing is lost: the facts are not touched, and the index is derived from them.
    """
    for trigger in ("facts_fts_delete", "facts_fts_update"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute("DROP TABLE IF EXISTS facts_vocab")
    conn.execute("DROP TABLE IF EXISTS facts_fts")
    conn.execute(CREATE_PARTITIONS)
    conn.execute(CREATE_INDEX)
    conn.execute("CREATE VIRTUAL TABLE facts_vocab USING fts5vocab(facts_fts, row)")
    conn.execute(DELETE_TRIGGER)
    conn.execute(UPDATE_TRIGGER)
    fill(conn)


def fill(conn: sqlite3.Connection, after_pk: int = 0) -> None:
    """Index the active facts past ``after_pk`` (all of them by default), in rowid order."""
    _check_pk(conn)
    conn.execute(
        "INSERT INTO keyword_partitions (agent_id, scope, owner) "
        "SELECT DISTINCT agent_id, scope, owner FROM facts WHERE pk > ? AND status = 'active' "
        "ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING",
        (after_pk,),
    )
    conn.execute(
        f"INSERT INTO facts_fts (rowid, content) SELECT (k.number << {PK_BITS}) | f.pk AS r, "
        "f.content FROM facts f JOIN keyword_partitions k "
        "ON k.agent_id = f.agent_id AND k.scope = f.scope AND k.owner = f.owner "
        "WHERE f.pk > ? AND f.status = 'active' ORDER BY r",
        (after_pk,),
    )


def rebuild(conn: sqlite3.Connection) -> None:
    """Empty the index and fill it again from the active facts."""
    conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('delete-all')")
    fill(conn)


def optimize(conn: sqlite3.Connection) -> None:
    """Merge the index's segments: what an erasure removed stays in no old segment."""
    conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")


def index_batch(conn: sqlite3.Connection, first_pk: int, facts: Sequence[Fact]) -> None:
    """Index ``facts``, inserted in order with the keys from ``first_pk`` on, from the batch
    itself (no read back), in rowid order."""
    if first_pk + len(facts) - 1 > PK_MASK:
        raise StoreError(_TOO_MANY)
    active = [(pk, f) for pk, f in enumerate(facts, first_pk) if f.is_active]
    numbers = number_partitions(conn, {_key(f) for _, f in active})
    rows = sorted(((numbers[_key(f)] << PK_BITS) | pk, f.content) for pk, f in active)
    conn.executemany("INSERT INTO facts_fts (rowid, content) VALUES (?, ?)", rows)


def number_partitions(conn: sqlite3.Connection, keys: Iterable[KeyCols]) -> dict[KeyCols, int]:
    """Each key's partition number, drawn for a key that has none yet (in a write)."""
    out: dict[KeyCols, int] = {}
    for key in sorted(keys):
        conn.execute(
            "INSERT INTO keyword_partitions (agent_id, scope, owner) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            key,
        )
        out[key] = partition_numbers(conn, [key])[0]
    return out


def partition_numbers(conn: sqlite3.Connection, keys: Iterable[KeyCols]) -> list[int]:
    """The numbers of those of ``keys`` that have one (a key that never had an indexed fact
    has none, and nothing in the index)."""
    out: list[int] = []
    for key in keys:
        row = conn.execute(
            "SELECT number FROM keyword_partitions WHERE agent_id = ? AND scope = ? AND owner = ?",
            key,
        ).fetchone()
        if row is not None:
            out.append(as_int(row[0], "keyword_partitions", key))
    return out


def rowid_ranges(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """The rowid bounds (inclusive) of the partitions ``numbers``: one range per run of
    consecutive numbers (the usual one-agent, one-user store's two partitions are one)."""
    ranges: list[tuple[int, int]] = []
    for number in sorted(set(numbers)):
        low, high = number << PK_BITS, (number << PK_BITS) | PK_MASK
        if ranges and ranges[-1][1] + 1 == low:
            ranges[-1] = (ranges[-1][0], high)
        else:
            ranges.append((low, high))
    return ranges


_TOO_MANY = (
    "this store has handed out 2^32 fact keys, past what its keyword index can address; "
    "export it and import it into a new store"
)


def _check_pk(conn: sqlite3.Connection) -> None:
    (largest,) = conn.execute("SELECT coalesce(max(pk), 0) FROM facts").fetchone()
    if int(largest) > PK_MASK:
        raise StoreError(_TOO_MANY)


def _key(fact: Fact) -> KeyCols:
    return (fact.agent_id, fact.scope.value, fact.user_id or "")
