"""Keeping the keyword index true to the active facts, and mending one that is not.

The FTS5 index is an *external-content* index over ``facts``: FTS5 trusts whatever it is
told to remove. Releases before schema version 3 kept it in step with two triggers on an
update, one removing the old text and one adding the new. SQLite fires the most recently
created trigger first, so the new text went in before the old text came out; when the two
shared a word, the removal took the new occurrence and left the index inconsistent
("database disk image is malformed" on the next search for that word). Version 3 replaces
them by one trigger that removes, then adds.

A file damaged by an earlier release is mended when it is upgraded: the index is compared
with what the active facts say it should hold and rebuilt from them if the two differ.
FTS5's own ``integrity-check`` cannot be used for the comparison, because this index holds
the *active* facts only and the check expects every row of the content table.
"""

from __future__ import annotations

import logging
import sqlite3

log = logging.getLogger("eden_memory.store")

# Removal before insertion, in one trigger, so their order is fixed.
UPDATE_TRIGGER = """
CREATE TRIGGER facts_fts_update AFTER UPDATE OF content, status ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content)
        SELECT 'delete', old.pk, old.content WHERE old.status = 'active';
    INSERT INTO facts_fts (rowid, content)
        SELECT new.pk, new.content WHERE new.status = 'active';
END
"""

# The tokenizer of ``facts_fts`` (ddl.CREATE_V1): the reference index must cut words alike.
_TOKENIZE = "unicode61 remove_diacritics 2"


def replace_update_triggers(conn: sqlite3.Connection) -> None:
    """Schema step 2 → 3: one update trigger instead of two whose order was unfixed."""
    conn.execute("DROP TRIGGER IF EXISTS facts_fts_unindex")
    conn.execute("DROP TRIGGER IF EXISTS facts_fts_reindex")
    conn.execute("DROP TRIGGER IF EXISTS facts_fts_update")
    conn.execute(UPDATE_TRIGGER)
    if index_damaged(conn):
        rebuild(conn)
        log.warning(
            "the keyword index of this memory store was damaged by an earlier eden-memory "
            "(editing a fact could corrupt it); it was rebuilt from the facts, nothing was lost"
        )


def index_damaged(conn: sqlite3.Connection) -> bool:
    """Whether the index differs from an index built afresh from the active facts."""
    conn.execute(
        f"CREATE VIRTUAL TABLE temp.fts_expected USING fts5(content, tokenize = '{_TOKENIZE}')"
    )
    conn.execute(
        "CREATE VIRTUAL TABLE temp.vocab_expected USING fts5vocab(temp, fts_expected, instance)"
    )
    conn.execute(
        "CREATE VIRTUAL TABLE temp.vocab_stored USING fts5vocab(main, facts_fts, instance)"
    )
    try:
        conn.execute(
            "INSERT INTO temp.fts_expected (rowid, content) "
            "SELECT pk, content FROM facts WHERE status = 'active'"
        )
        return _differ(conn)
    except sqlite3.DatabaseError:  # reading the stored index failed: it is malformed
        return True
    finally:
        for table in ("vocab_stored", "vocab_expected", "fts_expected"):
            conn.execute(f"DROP TABLE temp.{table}")


def rebuild(conn: sqlite3.Connection) -> None:
    """Empty the index and fill it again from the active facts."""
    conn.execute("INSERT INTO facts_fts (facts_fts) VALUES ('delete-all')")
    conn.execute(
        "INSERT INTO facts_fts (rowid, content) "
        "SELECT pk, content FROM facts WHERE status = 'active'"
    )


def _differ(conn: sqlite3.Connection) -> bool:
    columns = "term, doc, col, offset"
    row = conn.execute(
        f"SELECT 1 FROM (SELECT {columns} FROM temp.vocab_stored "
        f"EXCEPT SELECT {columns} FROM temp.vocab_expected) "
        f"UNION ALL SELECT 1 FROM (SELECT {columns} FROM temp.vocab_expected "
        f"EXCEPT SELECT {columns} FROM temp.vocab_stored) LIMIT 1"
    ).fetchone()
    return row is not None
