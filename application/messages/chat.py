"""Messages with a ``role`` and a ``content``: OpenAI chat, Anthropic, and plain dicts.

* OpenAI chat: ``content`` a string or content parts, ``tool_calls`` on assistant turns,
  ``role: "tool"`` for results, ``name`` the participant's display name.
* Anthropic: ``content`` a string or blocks; a user turn of only ``tool_result`` blocks is
  a tool message.
* Plain: ``{"role", "text" (or "content"), "id", "author_id", "author_name", "sent_at"}``.

Other keys an SDK object carries (usage, model, stop reason...) are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eden_memory.application.messages.blocks import blocks_text, only_tool_results
from eden_memory.application.messages.draft import (
    Draft,
    Problems,
    called,
    join,
    optional_text,
    role_of,
)
from eden_memory.domain.models import Role


def read_chat(data: Mapping[str, Any], path: str, problems: Problems) -> Draft | None:
    """One message of a role-and-content shape, or None with the problems noted."""
    role = role_of(data.get("role"), path, problems)
    text = _content(data, path, problems)
    author_id = optional_text(data, "author_id", path, problems)
    name = optional_text(data, "author_name", path, problems) or optional_text(
        data, "name", path, problems
    )
    given_id = data.get("id")
    if role is None or text is None:
        return None
    if role is Role.USER and only_tool_results(data.get("content") or []):
        role = Role.TOOL
    message_id = given_id if isinstance(given_id, str) else None
    return Draft(role, text, author_id, name, message_id, data.get("sent_at"))


def _content(data: Mapping[str, Any], path: str, problems: Problems) -> str | None:
    key = "text" if "text" in data else "content"
    value = data.get(key)
    if isinstance(value, list):
        text = blocks_text(value, f"{path}.{key}", problems)
    elif isinstance(value, str) or value is None:
        text = value or ""
    else:
        problems.add(f"{path}.{key}", f"must be a string or a list, got {type(value).__name__}")
        return None
    calls = [*_tool_calls(data, path, problems)]
    if key not in data and not calls:
        problems.add(f"{path}.content", "missing: give text or content")
        return None
    return join([text, *calls])


def _tool_calls(data: Mapping[str, Any], path: str, problems: Problems) -> list[str]:
    calls = data.get("tool_calls") or []
    if isinstance(data.get("function_call"), Mapping):  # the older single-call field
        calls = [*calls, {"function": data["function_call"]}]
    if not isinstance(calls, list):
        problems.add(f"{path}.tool_calls", "must be a list")
        return []
    out = []
    for i, call in enumerate(calls):
        function = call.get("function") if isinstance(call, Mapping) else None
        if not isinstance(function, Mapping):
            problems.add(f"{path}.tool_calls[{i}].function", "missing or not an object")
            continue
        out.append(called(function.get("name", "?"), function.get("arguments", "")))
    return out
