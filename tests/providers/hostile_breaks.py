"""Changes to each adapter's valid answer that break a field it reads (see ``hostile``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.providers.hostile import DELETE


@dataclass(frozen=True)
class Break:
    """A change to one field of an adapter's valid answer, at a dotted ``path``; the error
    must quote ``shows`` (by default the field's name)."""

    adapter: str
    name: str
    path: str
    value: Any
    shows: str = ""

    @property
    def quoted(self) -> str:
        return self.shows or self.path.rsplit(".", 1)[-1]


def _on(adapter: str, *changes: tuple[Any, ...]) -> list[Break]:
    return [Break(adapter, *change) for change in changes]


TOOL = "choices.0.message.tool_calls.0"
BREAKS = [
    *_on(
        "openai chat",
        ("message null", "choices.0.message", None, "choices[0].message"),
        ("choices a string", "choices", "none"),
        ("choices missing", "choices", DELETE),
        ("content a number", "choices.0.message.content", 5),
        ("prompt tokens a string", "usage.prompt_tokens", "19"),
        ("usage a list", "usage", [19, 10]),
        ("model a number", "model", 4),
    ),
    *_on(
        "openai chat tools",
        ("function null", f"{TOOL}.function", None),
        ("arguments an object", f"{TOOL}.function.arguments", {"facts": []}),
    ),
    *_on(
        "openai responses",
        ("output null", "output", None),
        ("content null", "output.0.content", None),
        ("text a number", "output.0.content.0.text", 5),
        ("input tokens a string", "usage.input_tokens", "36"),
        ("incomplete details a string", "incomplete_details", "cut"),
    ),
    *_on(
        "openai embedder",
        ("strings among the numbers", "data.0.embedding", [0.5, "0.5", *[0.1] * 6]),
        ("base64 that does not decode", "data.0.embedding", "!!not base64!!"),
        ("base64 of a partial float", "data.0.embedding", "AAAA"),
        ("an index a string", "data.0.index", "first"),
        ("an index twice", "data.1.index", 0),
        ("data null", "data", None),
        ("a vector of nans", "data.0.embedding", [float("nan")] * 8, "normalized"),
        ("a vector too short", "data.0.embedding", [0.5] * 3, "3 dimensions"),
        ("prompt tokens a string", "usage.prompt_tokens", "7"),
    ),
    *_on(
        "gemini",
        ("candidates a string", "candidates", "none"),
        ("candidates missing", "candidates", DELETE),
        ("parts null", "candidates.0.content.parts", None),
        ("content missing", "candidates.0.content", DELETE),
        ("text a number", "candidates.0.content.parts.0.text", 5),
        ("prompt tokens a word", "usageMetadata.promptTokenCount", "many"),
        ("prompt tokens negative", "usageMetadata.promptTokenCount", -3),
        ("usage a list", "usageMetadata", [21, 12]),
        ("finish reason a number", "candidates.0.finishReason", 7),
    ),
    *_on(
        "gemini embedder",
        ("embeddings missing", "embeddings", DELETE),
        ("embeddings an object", "embeddings", {"values": [1.0]}),
        ("values null", "embeddings.0.values", None, "0 dimensions"),
        ("words among the numbers", "embeddings.0.values", ["a"] * 8),
        ("a vector too long", "embeddings.1.values", [0.5] * 9, "9 dimensions"),
        ("a vector of infinities", "embeddings.0.values", [float("inf")] * 8, "normalized"),
        ("one embedding short", "embeddings.1", DELETE, "1 embeddings for 2 texts"),
    ),
]
