"""What ``SqliteFacts.add_superseding`` does with each item, inside its one write transaction.

Each item is decided (``domain.supersession``) against the rows the items before it wrote,
inside the transaction, so concurrent writers of one key cannot both keep a fact active.
The facts of a key are found by the record's JSON (``json_extract`` over the active facts
of the scope key, by the ``facts_recent`` index): no column or index of their own, so the
schema stays at its version; the cost is a scan of the scope key's active facts per item
with a key (docs/record/decisions/search.md, "Freshness"). Each new fact enters the keyword
index as it is written, so an item after it may retire it.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from eden_memory.adapters.stores.sqlite.facts.adds import add_one
from eden_memory.adapters.stores.sqlite.facts.rows import (
    FACT_COLUMNS,
    active_duplicate,
    fact_from_row,
    fact_key,
    fetch_fact,
    index_added,
    last_pk,
    rewrite_fact,
)
from eden_memory.adapters.stores.sqlite.revisions import Changes
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.models import Fact
from eden_memory.domain.supersession import Supersession, supersede
from eden_memory.ports.stores import Superseding

_KEYED = (
    f"SELECT {FACT_COLUMNS} FROM facts WHERE agent_id = ? AND scope = ? AND owner = ? "
    "AND status = 'active' AND json_extract(doc, '$.supersede_key') = ?"
)


def add_item(
    conn: sqlite3.Connection, changes: Changes, item: Superseding, row: Matrix, now: datetime
) -> Supersession:
    stored = fetch_fact(conn, item.fact.id)  # a retry: its retirements are finished
    new = item.fact if stored is None else stored
    named = None if item.supersedes is None else fetch_fact(conn, item.supersedes)
    done = supersede(new, _keyed(conn, new), now, item.supersedes, named)
    if stored is None:
        twin = active_duplicate(conn, done.fact) if done.fact.is_active else None
        if twin is not None:
            return Supersession(twin)
        before = last_pk(conn)
        add_one(conn, changes, done.fact, row)
        # In the keyword index now, before a later item retires it: the retirement takes it
        # out, and FTS5 trusts what it is told to remove, so taking out a fact never put in
        # lowered the index's row count (issue 40: negative idfs, a malformed index).
        index_added(conn, before, [done.fact])
    elif done.fact != stored:
        _rewrite(conn, changes, done.fact)
    for old in done.retired:
        _rewrite(conn, changes, old)
    return done


def _keyed(conn: sqlite3.Connection, fact: Fact) -> list[Fact]:
    """The active facts of ``fact``'s scope key with its supersede key."""
    if fact.supersede_key is None:
        return []
    found = conn.execute(_KEYED, (*fact_key(fact), fact.supersede_key))
    return [fact_from_row(row) for row in found]


def _rewrite(conn: sqlite3.Connection, changes: Changes, fact: Fact) -> None:
    if not rewrite_fact(conn, fact, changes.facts(fact_key(fact)), fact.version):
        raise ConflictError(f"fact {fact.id!r} changed while it was being superseded")
