"""Where a fact or a note the model filed under the agent is kept (issue 40).

Agent memory rides in every user's prompt; the model's choice of that scope is checked by
``domain.personal_details``: what identifies a user moves to that user's own memory, or is
refused when the session has no single user to keep it for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from eden_memory.application.formation.reports import Rejected
from eden_memory.domain.personal_details import Placement, place_agent_text
from eden_memory.domain.scopes import ActiveScopes, Scope

MOVED = "kept in the user's own memory"
NO_USER = "no single user to keep it for"


class Placed(NamedTuple):
    scope: Scope
    moved: Rejected | None  # the text as filed, and why it moved; None: kept where filed


def fact_placement(
    filed: str, content: str, scope: Scope, scopes: ActiveScopes
) -> Placed | Rejected:
    """A fact names its person by design: only identifiers keep it out of the agent's facts."""
    if scope is not Scope.AGENT:
        return Placed(scope, None)
    return _placement(filed, place_agent_text(content, (), Scope.USER in scopes.fact_scopes))


def note_placement(
    filed: str, note: str, scope: Scope, people: Sequence[str], scopes: ActiveScopes
) -> Placed | Rejected:
    """A note at the agent's level is "never about the people": their names count too."""
    if scope is not Scope.AGENT:
        return Placed(scope, None)
    return _placement(filed, place_agent_text(note, people, Scope.USER in scopes.scopes))


def _placement(filed: str, placed: Placement) -> Placed | Rejected:
    if placed.scope is None:
        return Rejected(filed, f"{placed.why}; {NO_USER}")
    if placed.scope is Scope.AGENT:
        return Placed(Scope.AGENT, None)
    return Placed(placed.scope, Rejected(filed, f"{placed.why}; {MOVED}"))
