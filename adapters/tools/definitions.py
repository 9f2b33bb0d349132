"""The ``search_facts`` tool, defined once and exported in every format a host needs.

The JSON Schema is built from ``SearchSettings`` so the limits a model is told (queries,
``top_k``) are exactly the limits the service enforces. Every export is a plain dict: it
goes straight into the provider SDK's ``tools=`` argument, and no SDK is imported here.
"""

from __future__ import annotations

from typing import Any, Literal

from eden_memory.domain.settings import SearchSettings

NAME = "search_facts"
ToolFormat = Literal["openai_responses", "openai_chat", "gemini", "anthropic", "json_schema"]
FORMATS: tuple[ToolFormat, ...] = (
    "openai_responses",
    "openai_chat",
    "gemini",
    "anthropic",
    "json_schema",
)

DESCRIPTION = (
    "Search your long-term memory for facts you learned earlier (about this user, or things "
    "you know across users). Use it when the answer may be something you were told before "
    "and it is not already in your memory context. Give 1 to 3 short queries, each about one "
    "thing; results are lines '- [scope] fact (age)'."
)


def parameters(settings: SearchSettings | None = None) -> dict[str, Any]:
    """The arguments as JSON Schema: 1 to ``max_queries`` queries, ``top_k``, ``debug``."""
    s = settings or SearchSettings()
    query = {"type": "string", "minLength": 1, "maxLength": s.max_query_chars}
    return {
        "type": "object",
        "properties": {
            "queries": {
                "type": "array",
                "items": query,
                "minItems": 1,
                "maxItems": s.max_queries,
                "description": f'1 to {s.max_queries} search queries, e.g. ["Alice\'s email"].',
            },
            "top_k": {
                "type": "integer",
                "minimum": 1,
                "maximum": s.max_top_k,
                "default": s.default_top_k,
                "description": f"Results per query (default {s.default_top_k}).",
            },
            "debug": {
                "type": "boolean",
                "default": False,
                "description": "Add per-stage scores and timings (for developers).",
            },
        },
        "required": ["queries"],
        "additionalProperties": False,
    }


def json_schema(settings: SearchSettings | None = None) -> dict[str, Any]:
    """Plain JSON Schema, titled and described, for hosts with their own tool format."""
    return {"title": NAME, "description": DESCRIPTION, **parameters(settings)}


def openai_responses_tool(settings: SearchSettings | None = None) -> dict[str, Any]:
    """For ``client.responses.create(tools=[...])``. Not strict: ``top_k`` is optional."""
    return {
        "type": "function",
        "name": NAME,
        "description": DESCRIPTION,
        "parameters": parameters(settings),
        "strict": False,
    }


def openai_chat_tool(settings: SearchSettings | None = None) -> dict[str, Any]:
    """For ``client.chat.completions.create(tools=[...])``."""
    function = {"name": NAME, "description": DESCRIPTION, "parameters": parameters(settings)}
    return {"type": "function", "function": function}


def gemini_declaration(settings: SearchSettings | None = None) -> dict[str, Any]:
    """A dict for google-genai's ``types.FunctionDeclaration(**declaration)``.

    Gemini's ``Schema`` is an OpenAPI subset without ``additionalProperties`` and with
    snake_case limits, so the schema is translated rather than passed through.
    """
    return {"name": NAME, "description": DESCRIPTION, "parameters": _openapi(parameters(settings))}


def anthropic_tool(settings: SearchSettings | None = None) -> dict[str, Any]:
    """For ``client.messages.create(tools=[...])``."""
    return {"name": NAME, "description": DESCRIPTION, "input_schema": parameters(settings)}


def definition(fmt: ToolFormat, settings: SearchSettings | None = None) -> dict[str, Any]:
    """The tool in format ``fmt`` (one of ``FORMATS``)."""
    return {
        "openai_responses": openai_responses_tool,
        "openai_chat": openai_chat_tool,
        "gemini": gemini_declaration,
        "anthropic": anthropic_tool,
        "json_schema": json_schema,
    }[fmt](settings)


_GEMINI_KEYS = {
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_items",
    "maxItems": "max_items",
}


def _openapi(schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "additionalProperties":
            continue
        if key == "type":
            value = value.upper()
        elif key == "properties":
            value = {name: _openapi(sub) for name, sub in value.items()}
        elif key == "items":
            value = _openapi(value)
        out[_GEMINI_KEYS.get(key, key)] = value
    return out
