"""Keyset paging for the console's lists: a page link carries where the last page stopped.

A fact listing continues from the ``formed_at`` and id of its last fact (the store's own
keyset, ``FactQuery.after``), so page 1,000 costs what page 1 costs. The cursor is plain text
in the URL: ``<ISO time>~<fact id>`` (``~`` never occurs in an id).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import FactId, check_id
from eden_memory.domain.models import Fact
from eden_memory.ports.stores import ListingPosition


def cursor_of(fact: Fact) -> str:
    return f"{fact.formed_at.isoformat()}~{fact.id}"


def position(cursor: str | None) -> ListingPosition | None:
    """The position a cursor names; ``InvalidInputError`` for anything else."""
    if not cursor:
        return None
    at, sep, fact_id = cursor.partition("~")
    try:
        formed_at = datetime.fromisoformat(at)
    except ValueError:
        formed_at = None
    if not sep or formed_at is None or formed_at.tzinfo is None:
        raise InvalidInputError(f"not a page position: {cursor!r}")
    return ListingPosition(formed_at, FactId(check_id(fact_id, "fact_id")))


def next_cursor(page: Sequence[Fact], limit: int) -> str | None:
    """The next page's cursor, or None on the last page (the caller asked for one extra)."""
    return cursor_of(page[limit - 1]) if len(page) > limit else None
