"""Identifiers are plain strings; NewTypes keep them from being swapped by mistake."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NewType

from eden_memory.domain.errors import InvalidInputError

AgentId = NewType("AgentId", str)
UserId = NewType("UserId", str)
SessionId = NewType("SessionId", str)
FactId = NewType("FactId", str)
ReflectionId = NewType("ReflectionId", str)
MessageId = NewType("MessageId", str)

MAX_ID_LENGTH = 200
# \Z, not $: "$" would also match before a final newline and let "u1\n" through.
_ID = re.compile(r"^[\w.:@+\-/=]+\Z", re.UNICODE)


def check_id(value: object, what: str = "id") -> str:
    """Refuse anything but a short printable string, so no id can smuggle a query operator."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a string, got {type(value).__name__}")
    if not value or len(value) > MAX_ID_LENGTH or _ID.match(value) is None:
        raise InvalidInputError(
            f"{what} {_shown(value)} is not valid: use 1-{MAX_ID_LENGTH} letters, digits "
            "or . _ : @ + - / ="
        )
    return value


def _shown(value: str) -> str:
    """The refused value as the message quotes it: a long one cut, so the message stays a line."""
    if len(value) <= MAX_ID_LENGTH:
        return repr(value)
    return f"{value[:40]!r}… ({len(value)} characters)"


def agent_id_of(value: object) -> AgentId:
    """A host's agent id, checked, as the type the layers below take."""
    return AgentId(check_id(value, "agent_id"))


def user_id_of(value: object) -> UserId:
    return UserId(check_id(value, "user_id"))


def session_id_of(value: object) -> SessionId:
    return SessionId(check_id(value, "session_id"))


def check_optional_id(value: object, what: str) -> str | None:
    """An id where ``None`` means "none given" (no user, no session)."""
    return None if value is None else check_id(value, what)


def check_sources(session_id: str | None, message_ids: Iterable[str]) -> None:
    """A memory's provenance: ids like any other (a stored record's strings reach JSON,
    BSON and SQL, which refuse a lone surrogate each in their own way)."""
    check_optional_id(session_id, "source_session_id")
    for message_id in message_ids:
        check_id(message_id, "source message id")


def check_id_list(values: object, what: str, each: str) -> list[str]:
    """Several ids; a lone string is refused, or ``"alice"`` would be read as five ids."""
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise InvalidInputError(f"{what} must be a list of ids, got {type(values).__name__}")
    return [check_id(value, each) for value in values]
