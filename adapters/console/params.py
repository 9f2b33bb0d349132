"""Reading a page's parameters: ids, a scope, a number — checked before the memory sees them.

A number is ASCII digits, a few of them: ``str.isdigit`` also says yes to ``²`` (which
``int`` refuses) and ``int`` also reads ``٣`` and 5,000-digit strings (which it refuses past
4,300 digits, after the work). Every number of every page and form is read by ``whole``.
"""

from __future__ import annotations

import re

from starlette.datastructures import FormData, QueryParams

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import check_id
from eden_memory.domain.scopes import Scope, ScopeKey

Params = QueryParams | FormData
_DIGITS = re.compile(r"[0-9]{1,18}")  # below 2**63: every store takes it


def text(params: Params, name: str) -> str | None:
    """A parameter's text, or None when it is missing or blank."""
    value = params.get(name)
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip()


def ident(params: Params, name: str) -> str | None:
    value = text(params, name)
    return None if value is None else check_id(value, name)


def required(params: Params, name: str) -> str:
    value = ident(params, name)
    if value is None:
        raise InvalidInputError(f"this page needs a {name}")
    return value


def where(params: Params) -> tuple[str, str | None, str | None]:
    """The agent a page needs, and the user and session it may name."""
    return required(params, "agent"), ident(params, "user"), ident(params, "session")


def whole(value: str) -> int | None:
    """The number ``value`` spells in ASCII digits (up to 18 of them), or None."""
    return int(value) if _DIGITS.fullmatch(value) else None


def number(params: Params, name: str, default: int, most: int) -> int:
    value = text(params, name)
    if value is None:
        return default
    found = whole(value)
    if found is None or not 1 <= found <= most:
        raise InvalidInputError(f"{name} must be a whole number from 1 to {most}")
    return found


def version(params: Params) -> int:
    """The version of the record the form's page showed: what an edit is based on."""
    value = text(params, "version")
    found = None if value is None else whole(value)
    if found is None:
        raise InvalidInputError(
            "this form has no version (the one its page showed); reload the page and try again"
        )
    return found


def scope_key(params: Params) -> ScopeKey:
    """The key a page names: agent, plus user or session for those scopes."""
    agent = required(params, "agent")
    name = text(params, "scope") or Scope.AGENT.value
    if name == Scope.USER.value:
        return ScopeKey.user(agent, required(params, "user"))
    if name == Scope.SESSION.value:
        return ScopeKey.session(agent, required(params, "session"))
    if name == Scope.AGENT.value:
        return ScopeKey.agent(agent)
    raise InvalidInputError(f"scope must be agent, user or session, got {name!r}")
