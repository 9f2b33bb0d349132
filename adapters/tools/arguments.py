"""The ``search_facts`` arguments as one pydantic model, the source of every schema.

``query`` is the canonical name (the specification's): 1 to ``max_queries`` strings, or a
single string. ``queries`` (this library's first name for it) is accepted too, so agents
prompted for either tool work. The limits come from ``SearchSettings``, so what a model is
told is what the service enforces.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, create_model

from eden_memory.domain.settings import SearchSettings

CANONICAL = "query"
ALIAS = "queries"


def search_fields(settings: SearchSettings | None = None) -> dict[str, Any]:
    """The fields for ``pydantic.create_model``: query, queries, top_k, debug."""
    s = settings or SearchSettings()
    one = Annotated[str, StringConstraints(min_length=1, max_length=s.max_query_chars)]
    some = Annotated[list[one], Field(min_length=1, max_length=s.max_queries)]
    example = '["Alice\'s email"]'
    return {
        CANONICAL: (
            some | one,
            Field(None, description=f"1 to {s.max_queries} short search queries, e.g. {example}."),
        ),
        ALIAS: (some | one, Field(None, description="The same as query (older name).")),
        "top_k": (
            int,
            Field(
                s.default_top_k,
                ge=1,
                le=s.max_top_k,
                description=f"Results per query (default {s.default_top_k}).",
            ),
        ),
        "debug": (bool, Field(False, description="Add per-stage scores and timings (developers).")),
    }


def arguments_model(settings: SearchSettings | None = None) -> type[BaseModel]:
    """A model of the arguments, unknown ones refused."""
    return create_model(
        "search_facts", __config__=ConfigDict(extra="forbid"), **search_fields(settings)
    )


def parameters(settings: SearchSettings | None = None) -> dict[str, Any]:
    """The arguments as JSON Schema, without pydantic's titles and null defaults."""
    schema: dict[str, Any] = _clean(arguments_model(settings).model_json_schema())
    return schema


def _clean(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {
            key: _clean(value)
            for key, value in schema.items()
            if key != "title" and not (key == "default" and value is None)
        }
    if isinstance(schema, list):
        return [_clean(item) for item in schema]
    return schema
