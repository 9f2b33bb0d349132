"""A person's shortened id, resolved to the one record it names, as git resolves a short hash.

A whole id always names its own record, even when it begins another one. Otherwise an id of
at least ``MIN_PREFIX`` characters that begins exactly one of the agent's ids names that one;
one that begins several is refused with the candidates listed, and one that begins none is
"not found". Only the agent's own records are looked at, so no candidate of another agent is
ever shown. The API itself takes whole ids only: this is for the command line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.ids import AgentId, check_id

MIN_PREFIX = 4
SHOWN = 10  # candidates listed when a prefix begins several ids

Starting = Callable[[str, int], Awaitable[Sequence[str]]]


async def resolve(agent: AgentId, given: object, what: str, starting: Starting) -> str:
    """The id ``given`` names among ``agent``'s records of kind ``what`` ("fact", "reflection");
    ``starting(prefix, limit)`` lists the agent's ids that begin with a prefix, ascending."""
    prefix = check_id(given, f"{what}_id")
    found = list(await starting(prefix, SHOWN + 1))
    if prefix in found:
        return prefix
    missing = f"agent {agent!r} has no {what} {prefix!r}"
    if not found:
        raise NotFoundError(missing)
    if len(prefix) < MIN_PREFIX:
        raise NotFoundError(f"{missing} (a shortened id needs {MIN_PREFIX} characters or more)")
    if len(found) == 1:
        return found[0]
    listed = ", ".join(found[:SHOWN]) + (", ..." if len(found) > SHOWN else "")
    raise InvalidInputError(
        f"{what} id {prefix!r} is ambiguous: it begins {_count(found, what)} of agent "
        f"{agent!r} ({listed}); give more of the id"
    )


def _count(found: Sequence[str], what: str) -> str:
    many = f"more than {SHOWN}" if len(found) > SHOWN else str(len(found))
    return f"{many} {what} ids"
