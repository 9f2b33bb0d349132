"""The JSON schema every provider is sent for an answer: one shape that all of them accept.

Strict OpenAI structured output requires every object to list all its properties as
required and to forbid others; Azure-style gateways refuse ``default`` in a strict schema;
Gemini and llama.cpp's grammar converter each read only a subset of JSON Schema (llama.cpp
silently falls back to "any JSON" when it cannot convert). So the pydantic schema is
rewritten once, here: references inlined, ``default`` and ``title`` dropped, every object
closed and fully required. A field with a default is then required on the wire; pydantic
still fills it when a lenient server leaves it out.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

_DROPPED = frozenset({"default", "title", "$defs", "examples"})


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON schema in the strict, portable form described above."""
    raw = model.model_json_schema()
    definitions: dict[str, Any] = raw.get("$defs", {})
    rewritten: dict[str, Any] = _rewrite(raw, definitions)
    return rewritten


def _rewrite(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        inlined = {**definitions[name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _rewrite(inlined, definitions)
    out = {key: _rewrite(value, definitions) for key, value in node.items() if key not in _DROPPED}
    if "properties" in node:  # names of fields, not keywords: none is dropped
        out["properties"] = {
            name: _rewrite(value, definitions) for name, value in node["properties"].items()
        }
    if out.get("type") == "object":
        out["required"] = list(out.setdefault("properties", {}))
        out["additionalProperties"] = False
    return out
