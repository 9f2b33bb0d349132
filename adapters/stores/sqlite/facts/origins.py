"""What a search's raises read of its candidates: when each was said, and in which session.

Read from the ``formed_us`` column and one field of the record's JSON, without decoding the
whole record: a search reads this of every candidate (up to 80 in a hybrid search) and whole
facts only of the ones it returns (``FactStore.fact_origins``).
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from eden_memory.adapters.stores.damage import reason
from eden_memory.adapters.stores.sqlite.codec import EPOCH
from eden_memory.adapters.stores.sqlite.decoding import Undecodable
from eden_memory.domain.ids import SessionId
from eden_memory.ports.stores import FactOrigin

# Found by id alone: ``+status`` and the partition filter's ``+column`` terms (``partition_filter``
# with ``by_index=False``) leave the id's unique index the only one the planner may use. A
# store never closed has no statistics (``PRAGMA optimize`` runs at close), and without them
# SQLite read the candidates along each visible partition's recent-facts index: every active
# fact of the viewer (74 against 8.6 ms a semantic search at 100k facts, measured).
# ``json_valid`` parses each record in full, doubling the read (0.52 against 0.23 ms for 60
# candidates, measured): the plain read runs first, and a record that is not JSON (which
# fails it) sends the chunk to the checked read, which names the damaged row.
SELECT_ORIGINS = (
    "SELECT id, formed_us, 1, json_extract(doc, '$.source_session_id') "
    "FROM facts WHERE id IN ({ids}) AND +status = 'active' AND {where}"
)
CHECKED_ORIGINS = (
    "SELECT id, formed_us, json_valid(doc), "
    "CASE WHEN json_valid(doc) THEN json_extract(doc, '$.source_session_id') END "
    "FROM facts WHERE id IN ({ids}) AND +status = 'active' AND {where}"
)


def not_json(exc: sqlite3.OperationalError) -> bool:
    """Whether ``json_extract`` failed on a record that is not JSON."""
    return "malformed json" in str(exc).lower()


def origin(fact_id: str, formed_us: object, valid: object, session: object) -> FactOrigin:
    """Checked by hand, not in a ``decoding`` block: a search reads this of 80 candidates."""
    if not valid:
        raise Undecodable("facts", fact_id, "its record is not JSON")
    if not (session is None or type(session) is str):
        raise Undecodable("facts", fact_id, "its record's source session is not text")
    if type(formed_us) is not int:
        raise Undecodable("facts", fact_id, f"an integer column holds {type(formed_us).__name__}")
    try:
        formed_at = EPOCH + timedelta(microseconds=formed_us)
    except OverflowError as exc:  # a time past the year 9999
        raise Undecodable("facts", fact_id, reason(exc)) from exc
    return FactOrigin(formed_at, None if session is None else SessionId(session))
