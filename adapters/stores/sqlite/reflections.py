"""Reflections: the buffer of interpreted memory, until a consolidation absorbs it."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite.codec import KeyCols, key_cols, rows_by_ids, to_us
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, decoding
from eden_memory.adapters.stores.sqlite.revisions import Changes, writing
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey

_ORDER = "ORDER BY formed_us, pk"
_IN_KEY = "(agent_id = ? AND scope = ? AND owner = ?)"


def _cols(reflection: Reflection) -> KeyCols:
    return key_cols(reflection.key)


def insert_reflections(
    conn: sqlite3.Connection, changes: Changes, reflections: Sequence[Reflection]
) -> None:
    """Store reflections; an id already held is left as it is."""
    for r in reflections:
        inserted = conn.execute(
            "INSERT INTO reflections (id, agent_id, scope, owner, absorbed, formed_us, doc) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (r.id, *_cols(r), int(r.absorbed), to_us(r.formed_at), r.model_dump_json()),
        )
        if inserted.rowcount:
            changes.memory(_cols(r))


def add_reflections(conn: sqlite3.Connection, reflections: Sequence[Reflection]) -> None:
    with writing(conn) as changes:
        insert_reflections(conn, changes, reflections)


def reflection_from_row(reflection_id: str, doc: str) -> Reflection:
    """The reflection of the row of ``reflection_id``; a record of another id is damage."""
    with decoding("reflections", reflection_id):
        reflection = Reflection.model_validate_json(doc)
    if reflection.id != reflection_id:
        raise Undecodable("reflections", reflection_id, f"its record is {reflection.id!r}")
    return reflection


def get_reflection(conn: sqlite3.Connection, reflection_id: str) -> Reflection | None:
    row = conn.execute("SELECT doc FROM reflections WHERE id = ?", (reflection_id,)).fetchone()
    return None if row is None else reflection_from_row(reflection_id, row[0])


def unabsorbed(conn: sqlite3.Connection, keys: Sequence[ScopeKey]) -> list[Reflection]:
    if not keys:
        return []
    where = " OR ".join([_IN_KEY] * len(keys))
    params = [v for key in keys for v in key_cols(key)]
    rows = conn.execute(
        f"SELECT id, doc FROM reflections WHERE absorbed = 0 AND ({where}) {_ORDER}", params
    )
    return [reflection_from_row(*row) for row in rows]


def list_reflections(
    conn: sqlite3.Connection, agent_id: str, key: ScopeKey | None, include_absorbed: bool
) -> list[Reflection]:
    where, params = "agent_id = ?", [agent_id]
    if key is not None:
        where, params = _IN_KEY, list(key_cols(key))
        if key.agent_id != agent_id:
            return []
    if not include_absorbed:
        where += " AND absorbed = 0"
    rows = conn.execute(f"SELECT id, doc FROM reflections WHERE {where} {_ORDER}", params)
    return [reflection_from_row(*row) for row in rows]


def update_reflection(
    conn: sqlite3.Connection, reflection: Reflection, expected_version: int
) -> Reflection:
    """Compare-and-set on the version inside ``doc`` (a row from before versions is 1)."""
    with writing(conn) as changes:
        stored = get_reflection(conn, reflection.id)
        if stored is None:
            raise NotFoundError(f"no reflection with id {reflection.id!r}")
        if stored.absorbed:
            raise ConflictError(f"reflection {reflection.id!r} is absorbed and can't change")
        updated = conn.execute(
            "UPDATE reflections SET agent_id = ?, scope = ?, owner = ?, absorbed = ?, "
            "formed_us = ?, doc = ? WHERE id = ? AND absorbed = 0 "
            "AND coalesce(json_extract(doc, '$.version'), 1) = ?",
            (
                *_cols(reflection),
                int(reflection.absorbed),
                to_us(reflection.formed_at),
                reflection.model_dump_json(),
                reflection.id,
                expected_version,
            ),
        )
        if not updated.rowcount:
            raise ConflictError(
                f"reflection {reflection.id!r} is no longer at version {expected_version}"
            )
        changes.memory(_cols(stored))
        changes.memory(_cols(reflection))
        return reflection


def delete_reflections(conn: sqlite3.Connection, ids: Sequence[str]) -> int:
    with writing(conn) as changes:
        sql = "SELECT agent_id, scope, owner FROM reflections WHERE absorbed = 0 AND id IN ({ids})"
        for row in rows_by_ids(conn, sql, list(ids)):
            changes.memory((row[0], row[1], row[2]))
        removed = 0
        for reflection_id in dict.fromkeys(ids):
            removed += conn.execute(
                "DELETE FROM reflections WHERE id = ? AND absorbed = 0", (reflection_id,)
            ).rowcount
        return removed


def purge_reflections(
    conn: sqlite3.Connection, remove: Sequence[str], rewrite: Sequence[Reflection]
) -> int:
    """Erasure: remove reflections and rewrite others, absorbed or not, in one transaction."""
    with writing(conn) as changes:
        sql = "SELECT agent_id, scope, owner FROM reflections WHERE id IN ({ids})"
        for row in rows_by_ids(conn, sql, [*remove, *(r.id for r in rewrite)]):
            changes.memory((row[0], row[1], row[2]))
        removed = 0
        for reflection_id in dict.fromkeys(remove):
            removed += conn.execute(
                "DELETE FROM reflections WHERE id = ?", (reflection_id,)
            ).rowcount
        for reflection in rewrite:
            conn.execute(
                "UPDATE reflections SET absorbed = ?, formed_us = ?, doc = ? WHERE id = ?",
                (
                    int(reflection.absorbed),
                    to_us(reflection.formed_at),
                    reflection.model_dump_json(),
                    reflection.id,
                ),
            )
        return removed
