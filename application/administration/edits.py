"""Edits based on a version: a person's save is refused once someone else saved first.

Every edit of a fact, a reflection or a blob names the version its author read
(``expected_version``). It is checked before anything is embedded, and again by the store's
compare-and-set, so two tabs, or a tab and a consolidation, never overwrite each other in
silence: the later save gets a ``StaleEditError`` that carries the record as it is now.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from eden_memory.domain.bounds import MAX_COUNT
from eden_memory.domain.errors import ConflictError, InvalidInputError, StaleEditError

if TYPE_CHECKING:
    from eden_memory.domain.errors import Versioned

T = TypeVar("T")


def version_of(value: object, least: int = 1) -> int:
    """A host's ``expected_version``: an integer, ``least`` or more (0: no blob yet)."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MAX_COUNT:
        raise InvalidInputError(
            f"expected_version must be an integer of {least} or more (the version the edit "
            f"was based on), got {value!r}"
        )
    return value


def unchanged(what: str, based_on: int, current: Versioned) -> None:
    """Refuse an edit whose record moved past the version it was based on."""
    if current.version != based_on:
        raise StaleEditError(what, based_on, current)


async def saved(
    write: Awaitable[T], what: str, based_on: int, reread: Callable[[], Awaitable[Versioned]]
) -> T:
    """Run a compare-and-set write; a lost one (another save in between) is a stale edit."""
    try:
        return await write
    except StaleEditError:
        raise
    except ConflictError:
        unchanged(what, based_on, await reread())
        raise  # a conflict of another kind (absorbed meanwhile, a duplicate fact)
