"""Chat Completions requests for a schema, in the three ways servers accept one.

* ``json_schema``: ``response_format: {type: json_schema, json_schema: {schema, strict}}``,
  OpenAI's structured output (also vLLM, Ollama, LiteLLM, Azure-style gateways).
* ``json_object``: ``response_format: {type: json_object, schema}``, what llama-cpp-python's
  server turns into a grammar (it answers ``json_schema`` with a 500); servers that ignore
  ``schema`` still return JSON, which is validated like any other answer.
* ``tools``: one function whose parameters are the schema, which the model must call
  (``tool_choice``); for servers that constrain tool arguments but not response formats.

Each sends the same strict schema (``answer_schema.strict_schema``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from eden_memory.adapters.answer_schema import strict_schema
from eden_memory.adapters.openai_answers import ChatAnswer
from eden_memory.adapters.providers_common import short
from eden_memory.adapters.truncation import truncated
from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.ports.llm import LLMRequest

SchemaMode = Literal["json_schema", "json_object", "tools"]
SCHEMA_MODES: tuple[SchemaMode, ...] = ("json_schema", "json_object", "tools")


def schema_request(mode: SchemaMode, schema: type[BaseModel]) -> dict[str, Any]:
    """The request fields (beyond model and messages) that ask for ``schema`` in ``mode``."""
    name, body = schema.__name__, strict_schema(schema)
    if mode == "json_schema":
        spec = {"name": name, "schema": body, "strict": True}
        return {"response_format": {"type": "json_schema", "json_schema": spec}}
    if mode == "json_object":
        return {"response_format": {"type": "json_object", "schema": body}}
    function = {
        "name": name,
        "description": "Give the answer as this function's arguments.",
        "parameters": body,
        "strict": True,
    }
    return {
        "tools": [{"type": "function", "function": function}],
        "tool_choice": {"type": "function", "function": {"name": name}},
    }


def answer_text(completion: ChatAnswer, request: LLMRequest, provider: str) -> str | None:
    """The JSON text of the answer, after ruling out truncation and refusal."""
    if not completion.choices:
        raise InvalidLLMOutputError(f"{provider} returned no choices")
    choice = completion.choices[0]
    if choice.finish_reason == "length":
        raise truncated(provider, request)
    if choice.finish_reason == "content_filter":
        raise InvalidLLMOutputError(
            f"{provider} refused to answer: its content filter stopped the answer"
        )
    message = choice.message
    if message.refusal:
        raise InvalidLLMOutputError(f"{provider} refused to answer: {short(message.refusal)}")
    for call in message.tool_calls or []:
        if call.type == "function" and call.function is not None:
            return call.function.arguments
    return message.content
