"""What every host format is read into before it becomes a ``Message``, and its errors.

A converter never raises on the first problem: it notes each one against the path of the field
(``messages[2].content[1].type``) so the host sees every mistake of a batch at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from eden_memory.domain.models import Role


@dataclass(frozen=True)
class Draft:
    """A message as read from a host's shape: role and text, and what the host knows of it."""

    role: Role
    text: str
    author_id: str | None = None
    author_name: str | None = None
    id: str | None = None
    sent_at: object = None


@dataclass
class Problems:
    """The field paths that could not be read, with why."""

    found: list[str] = field(default_factory=list)

    def add(self, path: str, reason: str) -> None:
        self.found.append(f"{path}: {reason}")


def role_of(value: object, path: str, problems: Problems) -> Role | None:
    """The role a host gave (``assistant``, ``model``... are accepted), or a problem."""
    try:
        if isinstance(value, str):
            return Role(value)
    except ValueError:
        pass
    problems.add(
        f"{path}.role",
        f"unknown role {value!r}; use user, assistant (or model, agent), tool or other",
    )
    return None


def optional_text(data: Mapping[str, Any], key: str, path: str, problems: Problems) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    problems.add(f"{path}.{key}", f"must be a string, got {type(value).__name__}")
    return None


def called(name: object, arguments: object) -> str:
    """A tool call as the extraction model reads it: ``[called name {"arg": ...}]``."""
    return f"[called {name} {_json(arguments)}]"


def result(name: object, response: object) -> str:
    """A tool's answer given as a value (Gemini): ``[result of name {...}]``."""
    return f"[result of {name} {_json(response)}]"


def _json(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def as_mapping(item: object) -> Mapping[str, Any] | None:
    """A dict, or an SDK object's fields (OpenAI, Anthropic and google-genai types)."""
    if isinstance(item, Mapping):
        return item
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        dumped = dump(exclude_none=True)
        if isinstance(dumped, Mapping):
            return dumped
    return None


def join(pieces: list[str]) -> str:
    return "\n".join(piece for piece in pieces if piece)
