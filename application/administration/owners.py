"""The agents of a store, and the users and the sessions of an agent, that hold memory, a page
at a time.

An agent holds memory with facts (any status) or notes in any scope; a user with facts of their
own (any status) or notes (a blob, reflections); a session with notes. The two stores' pages
are merged: the first ``limit`` owners after a cursor are among the first ``limit + 1`` of
each, so a page costs what it shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from eden_memory.application.arguments import count
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, UserId, check_optional_id
from eden_memory.domain.scopes import Scope
from eden_memory.ports.stores import FactReads, FactRecords, NoteRecords

MAX_PAGE = 1000


@dataclass(frozen=True)
class OwnerPage:
    """Owners in ascending order; ``next_after`` continues the listing (None: the last page)."""

    names: list[str]
    next_after: str | None


async def users_with_memory(
    facts: FactReads, buffers: NoteRecords, agent: AgentId, after: object, limit: object
) -> OwnerPage:
    cursor, size = _window(after, limit, "user_id")
    with_facts = await facts.fact_users(agent, UserId(cursor) if cursor else None, size + 1)
    with_notes = await buffers.note_owners(agent, Scope.USER, cursor, size + 1)
    return _page(sorted({*with_facts, *with_notes}), size)


async def agents_with_memory(
    facts: FactRecords, buffers: NoteRecords, after: object, limit: object
) -> OwnerPage:
    cursor, size = _window(after, limit, "agent_id")
    agent = AgentId(cursor) if cursor else None
    with_facts = await facts.fact_agents(agent, size + 1)
    with_notes = await buffers.note_agents(agent, size + 1)
    return _page(sorted({*with_facts, *with_notes}), size)


async def sessions_with_memory(
    buffers: NoteRecords, agent: AgentId, after: object, limit: object
) -> OwnerPage:
    cursor, size = _window(after, limit, "session_id")
    return _page(await buffers.note_owners(agent, Scope.SESSION, cursor, size + 1), size)


def _window(after: object, limit: object, what: str) -> tuple[str | None, int]:
    size = count("limit", limit)
    if not 1 <= size <= MAX_PAGE:
        raise InvalidInputError(f"limit must be 1 to {MAX_PAGE}, got {size}")
    return check_optional_id(after, f"after ({what})"), size


def _page(names: list[str], limit: int) -> OwnerPage:
    chosen = names[:limit]
    return OwnerPage(chosen, chosen[-1] if len(names) > limit else None)
