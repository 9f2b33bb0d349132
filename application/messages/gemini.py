"""Gemini contents: ``{"role": "user" | "model", "parts": [...]}``.

A part holds ``text``, a ``function_call`` or a ``function_response`` (the REST API's
camelCase names too); media become a placeholder and thought parts are left out. A content
of only function responses is a tool message. The plain keys ``id``, ``author_id``,
``author_name`` and ``sent_at`` may stand beside ``parts`` (what a host knows of the turn,
as Google ADK's events do).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eden_memory.application.messages.draft import (
    Draft,
    Problems,
    called,
    join,
    optional_text,
    result,
    role_of,
)
from eden_memory.domain.models import Role

_CALL = ("function_call", "functionCall")
_RESPONSE = ("function_response", "functionResponse")
_MEDIA = ("inline_data", "inlineData", "file_data", "fileData")


def read_gemini(data: Mapping[str, Any], path: str, problems: Problems) -> Draft | None:
    """One Gemini ``Content`` (a dict or ``types.Content``), or None with the problems noted."""
    role = role_of(data.get("role", "user"), path, problems)
    parts = data.get("parts")
    if not isinstance(parts, Sequence) or isinstance(parts, str):
        problems.add(f"{path}.parts", "must be a list of parts")
        return None
    pieces = [_part(part, f"{path}.parts[{i}]", problems) for i, part in enumerate(parts)]
    author_id = optional_text(data, "author_id", path, problems)
    name = optional_text(data, "author_name", path, problems)
    given_id = data.get("id")
    if role is None:
        return None
    if parts and all(_key(p, _RESPONSE) for p in parts):
        role = Role.TOOL
    message_id = given_id if isinstance(given_id, str) else None
    return Draft(role, join(pieces), author_id, name, message_id, data.get("sent_at"))


def _part(part: object, path: str, problems: Problems) -> str:
    if not isinstance(part, Mapping):
        problems.add(path, f"must be a part object, got {type(part).__name__}")
        return ""
    if part.get("thought"):
        return ""
    if isinstance(part.get("text"), str):
        return str(part["text"])
    if call := _key(part, _CALL):
        return called(call.get("name", "?"), call.get("args", {}))
    if response := _key(part, _RESPONSE):
        return result(response.get("name", "?"), response.get("response", {}))
    if any(key in part for key in _MEDIA):
        return "[media]"
    problems.add(path, "has no text, function_call, function_response or media")
    return ""


def _key(part: object, names: tuple[str, str]) -> Mapping[str, Any] | None:
    if not isinstance(part, Mapping):
        return None
    return next((part[n] for n in names if isinstance(part.get(n), Mapping)), None)
