"""The memory's own ``search_facts`` traffic, taken out of a turn before it is recorded.

A search's results are memory read back, not something said: recorded, they would be formed
again into the facts they came from. Calls are found by name and their results by the call's
id (OpenAI, Anthropic, Responses) or by name (Gemini), in every shape ``to_messages`` reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MEMORY_TOOL = "search_facts"
_CALLS = ("function_call", "functionCall")
_RESPONSES = ("function_response", "functionResponse")


def memory_call_ids(items: Sequence[Mapping[str, Any] | None]) -> set[str]:
    """The ids of the batch's ``search_facts`` calls, whatever the shape."""
    ids: set[str] = set()
    for data in items:
        if data is None:
            continue
        for call in _list(data.get("tool_calls")):  # OpenAI chat
            if _mapping(call).get("function", {}).get("name") == MEMORY_TOOL:
                ids.add(str(_mapping(call).get("id")))
        for block in _list(data.get("content")):  # Anthropic
            block = _mapping(block)
            if block.get("type") == "tool_use" and block.get("name") == MEMORY_TOOL:
                ids.add(str(block.get("id")))
        if data.get("type") == "function_call" and data.get("name") == MEMORY_TOOL:  # Responses
            ids.add(str(data.get("call_id")))
    return ids


def without_memory_tool(data: Mapping[str, Any], ids: set[str]) -> Mapping[str, Any] | None:
    """``data`` without the memory's calls and results; None when nothing else is left."""
    if data.get("type") in ("function_call", "function_call_output"):
        own = data.get("name") == MEMORY_TOOL or str(data.get("call_id")) in ids
        return None if own else data
    if data.get("role") == "tool" and str(data.get("tool_call_id")) in ids:
        return None
    out = dict(data)
    if isinstance(data.get("tool_calls"), list):
        out["tool_calls"] = [c for c in data["tool_calls"] if str(_mapping(c).get("id")) not in ids]
        if data["tool_calls"] and not out["tool_calls"] and not data.get("content"):
            return None
    if isinstance(data.get("content"), list):
        out["content"] = [b for b in data["content"] if not _own_block(b, ids)]
        if data["content"] and not out["content"]:
            return None
    if isinstance(data.get("parts"), list):
        out["parts"] = [p for p in data["parts"] if not _own_part(p)]
        if data["parts"] and not out["parts"]:
            return None
    return out


def _own_block(block: object, ids: set[str]) -> bool:
    b = _mapping(block)
    return (b.get("type") == "tool_use" and b.get("name") == MEMORY_TOOL) or (
        b.get("type") == "tool_result" and str(b.get("tool_use_id")) in ids
    )


def _own_part(part: object) -> bool:
    p = _mapping(part)
    return any(_mapping(p.get(k)).get("name") == MEMORY_TOOL for k in (*_CALLS, *_RESPONSES))


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
