"""LangGraph namespaces as eden-memory's fact scopes, both ways.

- ``(agent_id, "user", user_id)``: one user's facts with the agent (scope ``user``);
- ``(agent_id, "agent")``: the agent's own facts, shared by all its users (scope ``agent``).

The second label is the scope's name, so a namespace says whose memory it is, and no user id
can be mistaken for a scope. Anything else is a ``NamespaceError`` naming both forms, never a
guess: a namespace read as the wrong user's would file one user's memory under another.
eden-memory searches one scope of one user at a time, so a search prefix must be one of these
whole namespaces (``(agent_id,)`` would mean every user at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langgraph.store.base import InvalidNamespaceError, MatchCondition

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import check_id
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope

FORMS = '(agent_id, "user", user_id) or (agent_id, "agent")'


class NamespaceError(InvalidInputError, InvalidNamespaceError):
    """A namespace that names no scope of eden-memory (LangGraph's error, and the library's)."""


@dataclass(frozen=True)
class Place:
    """Where facts are kept: an agent's own scope, or one of its users' (``user_id``)."""

    agent_id: str
    user_id: str | None = None

    @property
    def scope(self) -> Scope:
        return Scope.AGENT if self.user_id is None else Scope.USER

    @property
    def namespace(self) -> tuple[str, ...]:
        if self.user_id is None:
            return (self.agent_id, Scope.AGENT.value)
        return (self.agent_id, Scope.USER.value, self.user_id)


def place_of(namespace: Sequence[str]) -> Place:
    """The scope a namespace names; a ``NamespaceError`` for any other shape or a bad id."""
    match tuple(namespace):
        case (agent_id, "agent"):
            return Place(_id(agent_id, "agent_id", namespace))
        case (agent_id, "user", user_id):
            return Place(_id(agent_id, "agent_id", namespace), _id(user_id, "user_id", namespace))
    raise NamespaceError(f"namespace {tuple(namespace)!r} is not {FORMS}")


def place_of_fact(fact: Fact) -> Place:
    return Place(fact.agent_id, fact.user_id if fact.scope is Scope.USER else None)


def _id(value: object, what: str, namespace: Sequence[str]) -> str:
    try:
        return check_id(value, what)
    except InvalidInputError as error:
        raise NamespaceError(f"namespace {tuple(namespace)!r}: {error}") from None


def matches(namespace: tuple[str, ...], conditions: Sequence[MatchCondition] | None) -> bool:
    """Whether a namespace meets every condition (prefix or suffix, ``"*"`` any label), as
    LangGraph's own stores read them."""
    return all(_meets(namespace, condition) for condition in conditions or ())


def _meets(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    if condition.match_type == "suffix":
        namespace, path = namespace[::-1], path[::-1]
    return all(want in ("*", have) for have, want in zip(namespace, path, strict=False))


def agent_named(conditions: Sequence[MatchCondition] | None) -> str:
    """The agent a listing asks about: the first label of its prefix (eden-memory lists one
    agent's users; it keeps no list of agents)."""
    for condition in conditions or ():
        if condition.match_type == "prefix" and condition.path and condition.path[0] != "*":
            return _id(condition.path[0], "agent_id", condition.path)
    raise NamespaceError(
        "list_namespaces needs a prefix naming the agent, e.g. prefix=('support-bot',): "
        "eden-memory lists one agent's namespaces at a time"
    )


__all__ = ["FORMS", "NamespaceError", "Place", "agent_named", "matches", "place_of"]
