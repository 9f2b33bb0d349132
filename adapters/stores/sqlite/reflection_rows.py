"""A reflection's row: stored by the buffers concern, and by a formation's claim completing.

Shared by the buffers and sessions concerns: a formation stores its reflections in the
transaction that completes its claim.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite.codec import KeyCols, key_cols, to_us
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, decoding
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.domain.models import Reflection


def reflection_key(reflection: Reflection) -> KeyCols:
    return key_cols(reflection.key)


def insert_reflections(
    conn: sqlite3.Connection, changes: Changes, reflections: Sequence[Reflection]
) -> None:
    """Store reflections; an id already held is left as it is."""
    for r in reflections:
        inserted = conn.execute(
            "INSERT INTO reflections (id, agent_id, scope, owner, absorbed, formed_us, doc) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (r.id, *reflection_key(r), int(r.absorbed), to_us(r.formed_at), r.model_dump_json()),
        )
        if inserted.rowcount:
            changes.memory(reflection_key(r))


def reflection_from_row(reflection_id: str, doc: str) -> Reflection:
    """The reflection of the row of ``reflection_id``; a record of another id is damage."""
    with decoding("reflections", reflection_id):
        reflection = Reflection.model_validate_json(doc)
    if reflection.id != reflection_id:
        raise Undecodable("reflections", reflection_id, f"its record is {reflection.id!r}")
    return reflection


def fetch_reflection(conn: sqlite3.Connection, reflection_id: str) -> Reflection | None:
    row = conn.execute("SELECT doc FROM reflections WHERE id = ?", (reflection_id,)).fetchone()
    return None if row is None else reflection_from_row(reflection_id, row[0])
