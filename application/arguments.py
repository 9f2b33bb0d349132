"""A host's arguments that are not ids, checked before a store sees them: pages and names.

Stores differ on what they make of ``limit=-1`` or ``scope="galaxy"`` (SQLite reads -1 as
"no limit", a dict fails to bind); refusing them here makes every store behave the same.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TypeVar

from eden_memory.domain.bounds import MAX_COUNT
from eden_memory.domain.errors import InvalidInputError

E = TypeVar("E", bound=StrEnum)


def optional_member(kind: type[E], value: object, what: str) -> E | None:
    """``None``, or a member of ``kind`` given as itself or by its value (``"user"``)."""
    if value is None or isinstance(value, kind):
        return value
    if isinstance(value, str) and value in {m.value for m in kind}:
        return kind(value)
    names = ", ".join(repr(m.value) for m in kind)
    raise InvalidInputError(f"{what} must be one of {names}, got {value!r}")


def page(limit: object, offset: object) -> tuple[int, int]:
    """A listing's window: two integers, neither negative."""
    return count("limit", limit), count("offset", offset)


def count(name: str, value: object) -> int:
    """A number of records: 0 or more, and within 64 bits (SQLite and BSON overflow past)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise InvalidInputError(
            f"{name} must be an integer of 0 or more (at most 2**63 - 1), got {value!r}"
        )
    return value


def optional_time(name: str, value: object) -> datetime | None:
    """``None``, or a timezone-aware instant (a naive one cannot be compared with stored ones)."""
    if value is None:
        return None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise InvalidInputError(f"{name} must be a timezone-aware datetime, got {value!r}")
    return value
