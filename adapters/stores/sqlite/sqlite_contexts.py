"""``SqliteContexts``: the ``ContextStore`` port on the store file.

One row per session and variant in ``session_contexts`` (schema version 12). Every process
on the file reads what any of them saved, so a context built by one worker is served by the
others while the revisions it was built from hold. A save is one small write on the
writer, which checks those revisions in its transaction (a context built from memory that
changed meanwhile is not kept) and drops the agent's contexts past the TTL, so the table
holds what is hot.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from eden_memory.adapters.stores.sqlite.codec import from_us, key_cols, to_us
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_int, as_text, decoding
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.workers import on_reader, on_writer
from eden_memory.domain.ids import AgentId
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.ports.stores.contexts import StoredContext, context_variant

_KEY = "agent_id = ? AND session_id = ? AND variant = ?"


class SqliteContexts:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    @on_reader
    def load_context(
        self, conn: sqlite3.Connection, scopes: ActiveScopes, recipe: str = ""
    ) -> StoredContext | None:
        key = _key(scopes, recipe)
        row = conn.execute(
            f"SELECT xml, built_us, facts, revisions, until_us FROM session_contexts WHERE {_KEY}",
            key,
        ).fetchone()
        return None if row is None else _context(row, key)

    @on_writer
    def save_context(
        self,
        conn: sqlite3.Connection,
        scopes: ActiveScopes,
        context: StoredContext,
        stale_before: datetime,
        recipe: str = "",
    ) -> None:
        until = None if context.until is None else to_us(context.until)
        with transaction(conn, write=True):
            conn.execute(
                "DELETE FROM session_contexts WHERE agent_id = ? AND built_us < ?",
                (scopes.agent_id, to_us(stale_before)),
            )
            if _revisions(conn, scopes) != context.revisions:
                return  # built from memory that has changed since: never to be served
            conn.execute(
                "INSERT INTO session_contexts (agent_id, session_id, variant, built_us, "
                "until_us, facts, revisions, xml) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (agent_id, session_id, variant) DO UPDATE SET "
                "built_us = excluded.built_us, until_us = excluded.until_us, "
                "facts = excluded.facts, revisions = excluded.revisions, xml = excluded.xml",
                (
                    *_key(scopes, recipe),
                    to_us(context.built_at),
                    until,
                    context.facts,
                    json.dumps(list(context.revisions)),
                    context.xml,
                ),
            )

    @on_writer
    def drop_contexts(self, conn: sqlite3.Connection, agent_id: AgentId) -> int:
        with transaction(conn, write=True):
            cursor = conn.execute("DELETE FROM session_contexts WHERE agent_id = ?", (agent_id,))
            return cursor.rowcount


def _revisions(conn: sqlite3.Connection, scopes: ActiveScopes) -> tuple[int, ...]:
    """The revisions of the scopes' keys now, in the write transaction (so no change can
    land between the check and the save)."""
    out = []
    keys = scopes.keys()
    for key in keys:
        row = conn.execute(
            "SELECT revision FROM scope_state WHERE agent_id = ? AND scope = ? AND owner = ?",
            key_cols(key),
        ).fetchone()
        out.append(as_int(row[0], "scope_state", key_cols(key)) if row else 0)
    return tuple(out)


def _key(scopes: ActiveScopes, recipe: str) -> tuple[str, str, str]:
    return (scopes.agent_id, scopes.session_id, context_variant(scopes, recipe))


def _context(row: sqlite3.Row | tuple[object, ...], key: tuple[str, str, str]) -> StoredContext:
    xml, built, facts, revisions, until = row
    with decoding("session_contexts", key):
        counters = json.loads(as_text(revisions, "session_contexts", key))
        if not isinstance(counters, list) or any(type(c) is not int for c in counters):
            raise Undecodable("session_contexts", key, "its revisions are not integers")
        built_at = from_us(as_int(built, "session_contexts", key))
        assert built_at is not None
        return StoredContext(
            xml=as_text(xml, "session_contexts", key),
            built_at=built_at,
            facts=as_int(facts, "session_contexts", key),
            revisions=tuple(counters),
            until=None if until is None else from_us(as_int(until, "session_contexts", key)),
        )
