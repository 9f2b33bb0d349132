"""What a search's raises read of its candidates: when each was said, and in which session.

Read from the ``formed_us`` column and one field of the record's JSON, without decoding the
whole record: a search reads this of every candidate (up to 80 in a hybrid search) and whole
facts only of the ones it returns (``FactStore.fact_origins``).
"""

from __future__ import annotations

from datetime import timedelta

from eden_memory.adapters.stores.sqlite.codec import EPOCH
from eden_memory.adapters.stores.sqlite.decoding import Undecodable, as_int, decoding
from eden_memory.domain.ids import SessionId
from eden_memory.ports.stores import FactOrigin

SELECT_ORIGINS = (
    "SELECT id, formed_us, json_valid(doc), "
    "CASE WHEN json_valid(doc) THEN json_extract(doc, '$.source_session_id') END "
    "FROM facts WHERE id IN ({ids}) AND status = 'active' AND {where}"
)


def origin(fact_id: str, formed_us: object, valid: object, session: object) -> FactOrigin:
    if not valid:
        raise Undecodable("facts", fact_id, "its record is not JSON")
    if not (session is None or isinstance(session, str)):
        raise Undecodable("facts", fact_id, "its record's source session is not text")
    with decoding("facts", fact_id):  # a time past the year 9999 overflows
        formed_at = EPOCH + timedelta(microseconds=as_int(formed_us, "facts", fact_id))
    return FactOrigin(formed_at, None if session is None else SessionId(session))
