"""What to change when a server refuses a request as invalid: asking again cannot help.

OpenAI-compatible servers differ in what they accept (the Responses API, ``json_schema``
response formats, temperature on reasoning models), and some report a request they cannot
serve as a 500 (llama-cpp-python does for ``json_schema``). These pure functions read the
server's message and name the setting that fixes it.
"""

from __future__ import annotations

import re

# How a server says "this request is wrong", as opposed to "I failed": in 500 bodies too.
_INVALID = re.compile(
    r"invalid|unsupported|not supported|validation error|input should be|not allowed|"
    r"unrecognized|unexpected keyword|extra inputs|does not support",
    re.IGNORECASE,
)
_SCHEMA = re.compile(r"response_format|json_schema|json_object|schema|tool", re.IGNORECASE)
_MODEL = re.compile(r"\bmodel\b", re.IGNORECASE)
_SCHEMA_MODES = ("json_schema", "json_object", "tools")


def says_invalid(detail: str) -> bool:
    """True when a server's error message says the request itself is invalid."""
    return _INVALID.search(detail) is not None


def model_missing(detail: str, code: str | None) -> bool:
    """True for a 404 about the model, not about the path."""
    return code == "model_not_found" or (
        _MODEL.search(detail) is not None and "not exist" in detail.lower()
    )


def no_responses_api(provider: str, detail: str) -> str:
    return (
        f"{provider} has no Responses API (404: {detail}): set EDEN_MEMORY_OPENAI_API=chat "
        "to use /chat/completions, which OpenAI-compatible servers offer"
    )


def what_to_change(detail: str, schema_mode: str | None) -> str:
    """The setting to change for a refused request, from the server's message."""
    lowered = detail.lower()
    if "temperature" in lowered:
        return "set EDEN_MEMORY_LLM_TEMPERATURE=default to leave the temperature to the server"
    if schema_mode is not None and _SCHEMA.search(detail):
        others = " or ".join(mode for mode in _SCHEMA_MODES if mode != schema_mode)
        return (
            f"the server may not accept the {schema_mode} way of asking for a schema: set "
            f"EDEN_MEMORY_OPENAI_SCHEMA_MODE to {others} (llama-cpp-python: json_object)"
        )
    if _MODEL.search(detail):
        return "check the model names (EDEN_MEMORY_MEMORY__MODELS__FAST and the reflection roles)"
    return "the request is invalid for this server; it is not retried"
