"""``SqliteBuffers``: the ``BufferStore`` port on the store file.

Reflections waiting to be consolidated, and the consolidated blob of each scope key. A
consolidation's commit (the new blob and the reflections it absorbed) is one transaction,
with compare-and-set on the blob's version, so two workers never both consolidate a key.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite.buffers.blobs import (
    KEY,
    absorb,
    blob_from_row,
    store_blob,
    stored_version,
)
from eden_memory.adapters.stores.sqlite.codec import key_cols, rows_by_ids, to_us
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.owners import ids_from
from eden_memory.adapters.stores.sqlite.reflection_rows import (
    fetch_reflection,
    insert_reflections,
    reflection_from_row,
    reflection_key,
)
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_writer
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey

_ORDER = "ORDER BY formed_us, pk"
_IN_KEY = f"({KEY})"


class SqliteBuffers:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    @on_writer
    def add_reflections(self, conn: sqlite3.Connection, reflections: Sequence[Reflection]) -> None:
        with self._handle.writing(conn) as changes:
            insert_reflections(conn, changes, reflections)

    @on_reader
    def get_reflection(
        self, conn: sqlite3.Connection, reflection_id: ReflectionId
    ) -> Reflection | None:
        return fetch_reflection(conn, reflection_id)

    @on_reader
    def unabsorbed(self, conn: sqlite3.Connection, keys: Sequence[ScopeKey]) -> list[Reflection]:
        if not keys:
            return []
        where = " OR ".join([_IN_KEY] * len(keys))
        params = [v for key in keys for v in key_cols(key)]
        rows = conn.execute(
            f"SELECT id, doc FROM reflections WHERE absorbed = 0 AND ({where}) {_ORDER}", params
        )
        return [reflection_from_row(*row) for row in rows]

    @on_reader
    def list_reflections(
        self,
        conn: sqlite3.Connection,
        agent_id: AgentId,
        key: ScopeKey | None = None,
        include_absorbed: bool = False,
    ) -> list[Reflection]:
        where, params = "agent_id = ?", [str(agent_id)]
        if key is not None:
            where, params = _IN_KEY, list(key_cols(key))
            if key.agent_id != agent_id:
                return []
        if not include_absorbed:
            where += " AND absorbed = 0"
        rows = conn.execute(f"SELECT id, doc FROM reflections WHERE {where} {_ORDER}", params)
        return [reflection_from_row(*row) for row in rows]

    @on_writer
    def update_reflection(
        self, conn: sqlite3.Connection, reflection: Reflection, expected_version: int
    ) -> Reflection:
        """Compare-and-set on the version inside ``doc`` (a row from before versions is 1)."""
        with self._handle.writing(conn) as changes:
            stored = fetch_reflection(conn, reflection.id)
            if stored is None:
                raise NotFoundError(f"no reflection with id {reflection.id!r}")
            if stored.absorbed:
                raise ConflictError(f"reflection {reflection.id!r} is absorbed and can't change")
            updated = conn.execute(
                "UPDATE reflections SET agent_id = ?, scope = ?, owner = ?, absorbed = ?, "
                "formed_us = ?, doc = ? WHERE id = ? AND absorbed = 0 "
                "AND coalesce(json_extract(doc, '$.version'), 1) = ?",
                (
                    *reflection_key(reflection),
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
            changes.memory(reflection_key(stored))
            changes.memory(reflection_key(reflection))
            return reflection

    @on_writer
    def delete_reflections(self, conn: sqlite3.Connection, ids: Sequence[ReflectionId]) -> int:
        with self._handle.writing(conn) as changes:
            return _delete(conn, changes, ids, "AND absorbed = 0")

    @on_writer
    def purge_reflections(
        self,
        conn: sqlite3.Connection,
        remove: Sequence[ReflectionId],
        rewrite: Sequence[Reflection],
    ) -> int:
        """Erasure: remove reflections and rewrite others, absorbed or not, in one transaction."""
        with self._handle.writing(conn) as changes:
            removed = _delete(conn, changes, remove)
            _touch(conn, changes, [r.id for r in rewrite])
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

    @on_reader
    def get_consolidated(
        self, conn: sqlite3.Connection, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        out: dict[ScopeKey, ConsolidatedMemory] = {}
        for key in keys:
            row = conn.execute(
                f"SELECT doc FROM consolidated WHERE {KEY}", key_cols(key)
            ).fetchone()
            if row is not None:
                out[key] = blob_from_row(key_cols(key), row[0])
        return out

    @on_reader
    def list_consolidated(
        self, conn: sqlite3.Connection, agent_id: AgentId
    ) -> list[ConsolidatedMemory]:
        rows = conn.execute(
            "SELECT agent_id, scope, owner, doc FROM consolidated WHERE agent_id = ? "
            "ORDER BY scope, owner",
            (agent_id,),
        )
        return [blob_from_row((a, s, o), doc) for a, s, o, doc in rows]

    @on_reader
    def note_owners(
        self,
        conn: sqlite3.Connection,
        agent_id: AgentId,
        scope: Scope,
        after: str | None,
        limit: int,
    ) -> list[str]:
        where = (agent_id, scope.value, after or "", max(limit, 0))
        rows = conn.execute(  # each side walks its (agent, scope, owner) index and stops
            "SELECT owner FROM (SELECT DISTINCT owner FROM reflections "
            "WHERE agent_id = ? AND scope = ? AND owner > ? ORDER BY owner LIMIT ?) "
            "UNION SELECT owner FROM (SELECT owner FROM consolidated "
            "WHERE agent_id = ? AND scope = ? AND owner > ? ORDER BY owner LIMIT ?) "
            "ORDER BY owner LIMIT ?",
            (*where, *where, max(limit, 0)),
        )
        return [str(owner) for (owner,) in rows]

    @on_reader
    def note_agents(
        self, conn: sqlite3.Connection, after: AgentId | None, limit: int
    ) -> list[AgentId]:
        where = (after or "", max(limit, 0))
        rows = conn.execute(  # each side walks an index led by agent_id and stops
            "SELECT agent_id FROM (SELECT DISTINCT agent_id FROM reflections "
            "WHERE agent_id > ? ORDER BY agent_id LIMIT ?) "
            "UNION SELECT agent_id FROM (SELECT DISTINCT agent_id FROM consolidated "
            "WHERE agent_id > ? ORDER BY agent_id LIMIT ?) ORDER BY agent_id LIMIT ?",
            (*where, *where, max(limit, 0)),
        )
        return [AgentId(agent) for (agent,) in rows]

    @on_reader
    def reflection_ids_starting_with(
        self, conn: sqlite3.Connection, agent_id: AgentId, prefix: str, limit: int
    ) -> list[ReflectionId]:
        return [ReflectionId(i) for i in ids_from(conn, "reflections", agent_id, prefix, limit)]

    @on_writer
    def commit_consolidation(
        self,
        conn: sqlite3.Connection,
        memory: ConsolidatedMemory,
        expected_version: int,
        absorbed: Sequence[ReflectionId],
        now: datetime,
    ) -> bool:
        with self._handle.writing(conn) as changes:
            if stored_version(conn, memory.key) != expected_version:
                return False
            store_blob(conn, changes, memory)
            absorb(conn, memory, absorbed, now)
            return True

    @on_writer
    def replace_consolidated(
        self, conn: sqlite3.Connection, memory: ConsolidatedMemory, expected_version: int | None
    ) -> bool:
        with self._handle.writing(conn) as changes:
            if (
                expected_version is not None
                and stored_version(conn, memory.key) != expected_version
            ):
                return False
            store_blob(conn, changes, memory)
            return True


def _delete(conn: sqlite3.Connection, changes: Changes, ids: Sequence[str], only: str = "") -> int:
    """Delete the reflections ``ids`` (``only``: a further condition on their rows), moving
    the revision of each key that loses one."""
    _touch(conn, changes, ids, only)
    removed = 0
    for reflection_id in dict.fromkeys(ids):
        removed += conn.execute(
            f"DELETE FROM reflections WHERE id = ? {only}", (reflection_id,)
        ).rowcount
    return removed


def _touch(conn: sqlite3.Connection, changes: Changes, ids: Sequence[str], only: str = "") -> None:
    """Move the revision of the keys that hold the reflections ``ids`` (as stored)."""
    sql = f"SELECT agent_id, scope, owner FROM reflections WHERE id IN ({{ids}}) {only}"
    for row in rows_by_ids(conn, sql, list(ids)):
        changes.memory((row[0], row[1], row[2]))
