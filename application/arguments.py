"""A host's arguments that are not ids, checked before a store sees them: pages and names.

Stores differ on what they make of ``limit=-1`` or ``scope="galaxy"`` (SQLite reads -1 as
"no limit", a dict fails to bind); refusing them here makes every store behave the same.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

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
    return _count("limit", limit), _count("offset", offset)


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(f"{name} must be an integer of 0 or more, got {value!r}")
    return value
