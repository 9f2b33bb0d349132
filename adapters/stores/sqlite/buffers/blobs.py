"""A consolidated blob's row: read back, its version, stored, and the reflections it absorbs."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite.codec import KeyCols, key_cols
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_int, decoding
from eden_memory.adapters.stores.sqlite.reflection_rows import reflection_from_row
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import ScopeKey

KEY = "agent_id = ? AND scope = ? AND owner = ?"


def blob_from_row(key: KeyCols, doc: str) -> ConsolidatedMemory:
    """The blob of a row keyed ``key``; a record of another key is damage."""
    with decoding("consolidated", key):
        blob = ConsolidatedMemory.model_validate_json(doc)
    if key_cols(blob.key) != key:
        raise Undecodable("consolidated", key, f"its record is of {key_cols(blob.key)!r}")
    return blob


def stored_version(conn: sqlite3.Connection, key: ScopeKey) -> int:
    row = conn.execute(f"SELECT version FROM consolidated WHERE {KEY}", key_cols(key)).fetchone()
    return 0 if row is None else as_int(row[0], "consolidated", key_cols(key))


def store_blob(conn: sqlite3.Connection, changes: Changes, memory: ConsolidatedMemory) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO consolidated (agent_id, scope, owner, version, doc) "
        "VALUES (?, ?, ?, ?, ?)",
        (*key_cols(memory.key), memory.version, memory.model_dump_json()),
    )
    changes.memory(key_cols(memory.key))


def absorb(
    conn: sqlite3.Connection, memory: ConsolidatedMemory, ids: Sequence[str], now: datetime
) -> None:
    """Mark exactly these reflections of the blob's key absorbed into its version."""
    for reflection_id in dict.fromkeys(ids):
        row = conn.execute(
            f"SELECT doc FROM reflections WHERE id = ? AND absorbed = 0 AND {KEY}",
            (reflection_id, *key_cols(memory.key)),
        ).fetchone()
        if row is None:
            continue
        done = reflection_from_row(reflection_id, row[0]).evolve(
            absorbed=True, absorbed_at=now, absorbed_into_version=memory.version
        )
        conn.execute(
            "UPDATE reflections SET absorbed = 1, doc = ? WHERE id = ?",
            (done.model_dump_json(), reflection_id),
        )
