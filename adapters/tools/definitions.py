"""The ``search_facts`` tool, defined once and exported in every format a host needs.

The JSON Schema is generated from one pydantic model (``arguments.arguments_model``) built
from ``SearchSettings``, so the limits a model is told (queries, ``top_k``) are exactly the
limits the service enforces. Every export is a plain dict: it goes straight into the
provider SDK's ``tools=`` argument, and no SDK is imported here.
"""

from __future__ import annotations

from typing import Any, Literal

from eden_memory.adapters.tools.arguments import parameters
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
    "and it is not already in your memory context. `query` is required: 1 to 3 short "
    "queries, each about one thing. Results are lines '- [scope] fact (age)'."
)


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
    """A dict for google-genai's ``types.FunctionDeclaration(**declaration)``: the JSON
    Schema itself, through ``parameters_json_schema`` (no translation to Gemini's ``Schema``)."""
    return {
        "name": NAME,
        "description": DESCRIPTION,
        "parameters_json_schema": parameters(settings),
    }


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
