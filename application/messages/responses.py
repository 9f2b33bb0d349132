"""OpenAI Responses items, as ``response.output`` or an Agents SDK ``to_input_list()`` has them.

A ``message`` item is read like a chat message; a ``function_call`` is the agent calling a
tool and a ``function_call_output`` the tool's answer. Reasoning and hosted tools' items
(web search, file search...) are left out: they are not something said. Item ids name output
items, not messages (the Agents SDK gives every item of other providers the same placeholder
id), so they are not used as message ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eden_memory.application.messages.blocks import blocks_text
from eden_memory.application.messages.chat import read_chat
from eden_memory.application.messages.draft import Draft, Problems, called
from eden_memory.domain.models import Role

SAID = {"message", "function_call", "function_call_output"}


def is_item(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is a Responses item rather than a chat message."""
    kind = data.get("type")
    return isinstance(kind, str) and (kind in SAID or "role" not in data)


def read_item(data: Mapping[str, Any], path: str, problems: Problems) -> Draft | None:
    """One item, or None when it is not part of the conversation (or is bad, noted)."""
    kind = data.get("type")
    if kind == "message":
        return read_chat({k: v for k, v in data.items() if k != "id"}, path, problems)
    if kind == "function_call":
        return Draft(Role.AGENT, called(data.get("name", "?"), data.get("arguments", "")))
    if kind == "function_call_output":
        output = data.get("output", "")
        if isinstance(output, list):
            output = blocks_text(output, f"{path}.output", problems)
        elif not isinstance(output, str):
            problems.add(f"{path}.output", "must be a string or a list of parts")
            return None
        return Draft(Role.TOOL, output)
    return None
