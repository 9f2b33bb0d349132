"""Every schema we send passes the rules of strict OpenAI, Azure-style gateways and Gemini.

The rules, checked on every node: no ``default`` (gateways refuse it in strict schemas),
every object closed (``additionalProperties: false``) and listing all its properties as
required (OpenAI strict), no ``$ref``/``$defs`` and only keywords from the subset Gemini,
OpenAI strict and llama.cpp's grammar converter all read, with a single type per node.
"""

from __future__ import annotations

import inspect
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, create_model

from eden_memory.adapters.answer_schema import strict_schema
from eden_memory.application import schemas

KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "enum"}
KEYWORDS |= {"anyOf", "description"}
TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def problems(node: Any, where: str = "$") -> list[str]:
    """Every broken rule in ``node``, with the path to it."""
    if not isinstance(node, dict):
        return [f"{where}: not a schema"]
    found = [f"{where}: keyword {key}" for key in node if key not in KEYWORDS]
    if "type" in node and node["type"] not in TYPES:
        found.append(f"{where}: type {node['type']!r}")
    if node.get("type") == "object":
        if node.get("additionalProperties") is not False:
            found.append(f"{where}: object not closed")
        if node.get("required") != list(node.get("properties", {})):
            found.append(f"{where}: not every property required")
    for name, child in node.get("properties", {}).items():
        found += problems(child, f"{where}.{name}")
    if "items" in node:
        found += problems(node["items"], f"{where}[]")
    for index, branch in enumerate(node.get("anyOf", [])):
        found += problems(branch, f"{where}|{index}")
    return found


ANSWERS = [
    model
    for _, model in inspect.getmembers(schemas, inspect.isclass)
    if issubclass(model, BaseModel) and model.__module__ == schemas.__name__
]


def test_the_application_s_answers_are_all_walked() -> None:
    names = {model.__name__ for model in ANSWERS}
    assert {"ExtractedFacts", "FactDecisions", "ExtractedReflections", "ConsolidatedText"} <= names


@pytest.mark.parametrize("model", ANSWERS, ids=lambda model: model.__name__)
def test_every_answer_schema_we_send_follows_every_provider_s_rules(
    model: type[BaseModel],
) -> None:
    sent = strict_schema(model)

    assert sent["type"] == "object"
    assert problems(sent) == []


def test_the_rules_catch_what_pydantic_sends_by_itself() -> None:
    raw = schemas.FactDecisions.model_json_schema()

    assert any("keyword $defs" in problem for problem in problems(raw))


class Inner(BaseModel):
    title: str = "fields named like keywords stay"
    default: list[int] = Field(default_factory=list)


FIELD_TYPES: list[Any] = [str, int, float, bool, list[str], str | None, Literal["a", "b"], Inner]
DEFAULTS: dict[Any, Any] = {str: "x", int: 1, float: 0.5, bool: True, list[str]: []}


@st.composite
def models(draw: st.DrawFn, depth: int = 0) -> type[BaseModel]:
    """Answer-like models: a few fields of common types, some defaulted, some nested."""
    names = draw(st.lists(st.sampled_from(["a", "b", "title", "items", "c"]), unique=True))
    fields: dict[str, Any] = {}
    for name in names:
        kind = draw(st.sampled_from(FIELD_TYPES))
        if depth < 2 and draw(st.booleans()):
            kind = list[draw(models(depth + 1))]  # type: ignore[misc]
        default = DEFAULTS.get(kind, ...) if draw(st.booleans()) else ...
        fields[name] = (kind, default)
    return create_model(f"Answer{depth}", **fields)


@settings(max_examples=60, deadline=None)
@given(models())
def test_any_answer_like_model_becomes_a_schema_every_provider_accepts(
    model: type[BaseModel],
) -> None:
    sent = strict_schema(model)

    assert problems(sent) == []
    assert sent["required"] == list(model.model_fields)
