"""The ``search_facts`` arguments as one pydantic model, the source of every schema.

``query`` is the canonical name (the specification's) and the one required argument: 1 to
``max_queries`` strings, or a single string. A schema that requires nothing tells a model it
may call the tool with ``{}`` (pydantic-ai's ``TestModel`` does, and gets an error back).
``queries`` (this library's first name for it) is still accepted, so agents prompted for the
older tool work, but it is left out of the published schema: one name, required. The limits
come from ``SearchSettings``, so what a model is told is what the service enforces.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, create_model, model_validator
from pydantic.json_schema import SkipJsonSchema

from eden_memory.domain.settings import SearchSettings

CANONICAL = "query"
ALIAS = "queries"
_UNPUBLISHED: Any = SkipJsonSchema  # a field validated but left out of the JSON Schema


def search_fields(settings: SearchSettings | None = None) -> dict[str, Any]:
    """The fields for ``pydantic.create_model``: query (required), top_k, debug, and the
    older ``queries``, accepted but unpublished (build the model with ``VALIDATORS``)."""
    s = settings or SearchSettings()
    one = Annotated[str, StringConstraints(min_length=1, max_length=s.max_query_chars)]
    some = Annotated[list[one], Field(min_length=1, max_length=s.max_queries)]
    example = '["Alice\'s email"]'
    return {
        CANONICAL: (
            some | one,
            Field(description=f"1 to {s.max_queries} short search queries, e.g. {example}."),
        ),
        ALIAS: (_UNPUBLISHED[some | one | None], Field(None, description="The same as query.")),
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


def _older_name(cls: Any, data: Any) -> Any:
    """``queries`` alone stands for ``query``; both given stay both (the handler refuses)."""
    if isinstance(data, dict) and data.get(CANONICAL) is None and data.get(ALIAS) is not None:
        return {**{k: v for k, v in data.items() if k != ALIAS}, CANONICAL: data[ALIAS]}
    return data


# For ``create_model(..., __validators__=VALIDATORS)`` beside ``search_fields``.
VALIDATORS: dict[str, Any] = {"_older_name": model_validator(mode="before")(_older_name)}


def arguments_model(settings: SearchSettings | None = None) -> type[BaseModel]:
    """A model of the arguments, unknown ones refused."""
    return create_model(
        "search_facts",
        __config__=ConfigDict(extra="forbid"),
        __validators__=VALIDATORS,
        **search_fields(settings),
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
