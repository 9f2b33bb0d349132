"""Reading a tool call, whatever provider produced it, into (name, arguments, call id).

Hosts hand over what their SDK gave them: an OpenAI Responses ``function_call`` item, a Chat
Completions ``tool_call``, a Gemini ``FunctionCall`` (or a ``Part`` holding one), an Anthropic
``tool_use`` block, or a plain ``{"name": ..., "arguments": ...}``; SDK objects or dicts;
arguments as a JSON string or a dict. Anything unreadable becomes a ``ToolCallError`` whose
message is written for the model, so the host can send it back instead of crashing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class ToolCallError(ValueError):
    """A tool call the handler cannot execute; ``str(error)`` is meant for the model."""


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]
    call_id: str | None = None


def read_call(call: object) -> ToolCall:
    """Normalise a tool call of any supported format (see the module docstring)."""
    data = _as_dict(call)
    if isinstance(data.get("function_call"), Mapping):  # a Gemini Part
        data = dict(data["function_call"])
    if isinstance(data.get("function"), Mapping):  # a Chat Completions tool_call
        inner = data["function"]
        return ToolCall(
            str(inner.get("name", "")), parse_arguments(inner.get("arguments")), _id(data.get("id"))
        )
    raw = next((data[k] for k in ("arguments", "args", "input") if k in data), None)
    call_id = _id(data.get("call_id") or data.get("id"))
    return ToolCall(str(data.get("name") or ""), parse_arguments(raw), call_id)


def call_id_of(call: object) -> str | None:
    """The call's id even when its arguments are unreadable, so the error can answer it."""
    try:
        data = _as_dict(call)
    except ToolCallError:
        return None
    inner = data.get("function_call")
    if isinstance(inner, Mapping):
        data = dict(inner)
    return _id(data.get("call_id") or data.get("id"))


def parse_arguments(raw: object) -> dict[str, Any]:
    """Arguments as a dict, from a JSON string, a mapping, or nothing (no arguments)."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str | bytes):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as error:
            raise ToolCallError(
                f"the arguments are not valid JSON ({error.msg} at position {error.pos}); "
                'send an object such as {"query": ["Alice\'s email"]}'
            ) from None
        except RecursionError:
            raise ToolCallError(
                "the arguments are not valid JSON (nested too deep); "
                'send an object such as {"query": ["..."]}'
            ) from None
    if isinstance(raw, Mapping):
        return {str(key): value for key, value in raw.items()}
    raise ToolCallError('the arguments must be a JSON object such as {"query": ["..."]}')


def _as_dict(call: object) -> dict[str, Any]:
    if isinstance(call, Mapping):
        return dict(call)
    dump = getattr(call, "model_dump", None)  # OpenAI, Anthropic and google-genai types
    if callable(dump):
        dumped = dump()
        if isinstance(dumped, Mapping):
            return dict(dumped)
    fields = ("name", "arguments", "args", "input", "id", "call_id", "function")
    found = {f: getattr(call, f) for f in fields if getattr(call, f, None) is not None}
    if "name" not in found and "function" not in found:
        raise ToolCallError("not a tool call: expected a name and arguments")
    if "function" in found and not isinstance(found["function"], Mapping):
        found["function"] = _as_dict(found["function"])
    return found


def _id(value: object) -> str | None:
    return None if value is None else str(value)
