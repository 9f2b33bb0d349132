"""What a host's new fact supersedes: the fact it names, and the older facts of its key.

Direct ingestion can say what a fact replaces, two ways: an id (``supersedes``: "this fact
replaces that one"), or a ``supersede_key`` (a slot such as ``user.home_city``: within one
scope key, the newest fact of a key is the true one). The superseded facts are *retired*
(kept with their history, out of context and search), as formation retires a contradicted
fact. The newest of a key is decided by ``formed_at``, not by arrival: a history imported
out of order ends in the same state; a new fact older than the active one of its key is
stored retired. Every store runs this rule inside its write (``FactStore.add_superseding``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact

SUPERSEDED = "superseded"


@dataclass(frozen=True)
class Supersession:
    """A new fact as it is to be stored, and the stored facts it retires (as retired)."""

    fact: Fact
    retired: tuple[Fact, ...] = ()

    @property
    def retired_ids(self) -> tuple[FactId, ...]:
        return tuple(f.id for f in self.retired)


def check_named(new: Fact, supersedes: FactId, named: Fact | None) -> Fact:
    """The fact ``supersedes`` names, if ``new`` may supersede it; a clear error otherwise."""
    if supersedes == new.id:
        raise InvalidInputError(f"fact {supersedes} cannot supersede itself")
    if named is None or named.agent_id != new.agent_id:
        raise NotFoundError(f"fact {supersedes} to supersede is not stored")
    if named.key != new.key:
        raise InvalidInputError(
            f"fact {supersedes} is in {_where(named)}, not {_where(new)}: "
            "a fact supersedes only facts of its own scope"
        )
    return named


def _where(fact: Fact) -> str:
    return f"{fact.scope.value} scope" + (f" of user {fact.user_id}" if fact.user_id else "")


def supersede(
    new: Fact,
    holders: Sequence[Fact],
    now: datetime,
    supersedes: FactId | None = None,
    named: Fact | None = None,
) -> Supersession:
    """``new`` and what it retires: ``named`` (the fact ``supersedes`` names, checked by
    ``check_named``) if active, whatever its time; and every active fact of ``holders`` (the
    stored facts of ``new``'s scope key with its ``supersede_key``) but the newest of them
    and ``new``, which is stored retired when it is not that newest one."""
    retired: list[Fact] = []
    if supersedes is not None:
        named = check_named(new, supersedes, named)
        if named.is_active:  # the host's word: retired whatever its time
            retired.append(named.retired(now, SUPERSEDED, new.id))
    rivals = [h for h in holders if _rival(new, h) and h.id != supersedes]
    newest = max(rivals, key=lambda h: (h.formed_at, h.id), default=None)
    if newest is not None and newest.formed_at > new.formed_at:
        winner = newest.id  # ``new`` comes too late: it is history already
        if new.is_active:
            new = new.retired(now, SUPERSEDED, winner)
    else:
        winner = new.id
    retired += [h.retired(now, SUPERSEDED, winner) for h in rivals if h.id != winner]
    return Supersession(new, tuple(retired))


def _rival(new: Fact, held: Fact) -> bool:
    """Whether ``held`` is another active fact of ``new``'s scope key and supersede key."""
    return (
        new.supersede_key is not None
        and held.supersede_key == new.supersede_key
        and held.key == new.key
        and held.id != new.id
        and held.is_active
    )
