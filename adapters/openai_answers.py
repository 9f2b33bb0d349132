"""The fields the OpenAI adapters read from an answer, with their types, and nothing else.

Checked by ``provider_answers.read_answer``. Only what the adapters read is required, so the
many compatible servers that leave out ``id``, ``created`` or ``object`` still work; what is
read must have its type (numbers as numbers: a token count of ``"19"`` is refused, not
guessed). A missing ``usage`` counts no tokens: several compatible servers send none.
"""

from __future__ import annotations

import base64
import binascii
import struct
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictFloat,
    Tag,
    model_validator,
)

Count = Annotated[int, Field(strict=True, ge=0)]


class Loose(BaseModel):
    """A part of an answer: unknown fields are ignored, known ones validated."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class ChatFunction(Loose):
    arguments: str


class ChatToolCall(Loose):
    type: str | None = None
    function: ChatFunction | None = None

    @model_validator(mode="after")
    def _function_given(self) -> ChatToolCall:
        if self.type == "function" and self.function is None:
            raise ValueError("a function call without its function")
        return self


class ChatMessage(Loose):
    content: str | None = None
    refusal: str | None = None
    tool_calls: list[ChatToolCall] | None = None


class ChatChoice(Loose):
    finish_reason: str | None = None
    message: ChatMessage


class ChatUsage(Loose):
    prompt_tokens: Count | None = None
    completion_tokens: Count | None = None


class ChatAnswer(Loose):
    """``/chat/completions``."""

    model: str | None = None
    choices: list[ChatChoice]
    usage: ChatUsage | None = None

    def tokens(self) -> tuple[int, int]:
        """Input and output tokens; none counted when the server did not say."""
        usage = self.usage or ChatUsage()
        return usage.prompt_tokens or 0, usage.completion_tokens or 0


class OutputContent(Loose):
    type: str
    text: str | None = None
    refusal: str | None = None


class MessageItem(Loose):
    type: Literal["message"]
    phase: str | None = None
    content: list[OutputContent]


class OtherItem(Loose):
    """Reasoning, tool calls and the like: only their type is read (to skip them)."""

    type: str


def _item_kind(item: Any) -> str:
    kind = item.get("type") if isinstance(item, dict) else getattr(item, "type", None)
    return "message" if kind == "message" else "other"


OutputItem = Annotated[
    Annotated[MessageItem, Tag("message")] | Annotated[OtherItem, Tag("other")],
    Discriminator(_item_kind),
]


class IncompleteDetails(Loose):
    reason: str | None = None


class ResponsesUsage(Loose):
    input_tokens: Count | None = None
    output_tokens: Count | None = None


class ResponsesAnswer(Loose):
    """``/responses``."""

    status: str | None = None
    incomplete_details: IncompleteDetails | None = None
    model: str | None = None
    output: list[OutputItem]
    usage: ResponsesUsage | None = None

    def tokens(self) -> tuple[int, int]:
        """Input and output tokens; none counted when the server did not say."""
        usage = self.usage or ResponsesUsage()
        return usage.input_tokens or 0, usage.output_tokens or 0


def _from_base64(value: object) -> object:
    """Little-endian float32s, as ``encoding_format=base64`` sends them; lists pass as they are."""
    if not isinstance(value, str):
        return value
    try:
        raw = base64.b64decode(value, validate=True)
    except binascii.Error as error:
        raise ValueError(f"not base64 ({error})") from error
    if len(raw) % 4:
        raise ValueError(f"{len(raw)} bytes of base64 are not a whole number of float32s")
    return list(struct.unpack(f"<{len(raw) // 4}f", raw))


class EmbeddingRow(Loose):
    index: Count
    embedding: Annotated[list[StrictFloat], BeforeValidator(_from_base64)]


class EmbeddingsUsage(Loose):
    prompt_tokens: Count | None = None


class EmbeddingsAnswer(Loose):
    """``/embeddings``."""

    data: list[EmbeddingRow]
    usage: EmbeddingsUsage | None = None

    def tokens(self) -> int:
        """Input tokens; none counted when the server did not say (several compatibles)."""
        return (self.usage.prompt_tokens if self.usage else None) or 0
