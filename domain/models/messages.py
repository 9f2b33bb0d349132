"""Conversation messages, as the host records them after a turn."""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import field_validator, model_validator

from eden_memory.domain.ids import MessageId, check_id
from eden_memory.domain.models.base import Record, UtcTime

MAX_MESSAGE_CHARS = 200_000


class Role(StrEnum):
    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    OTHER = "other"


class Message(Record):
    id: MessageId
    role: Role
    text: str
    sent_at: UtcTime
    # Who wrote it: a user id for user messages, a tool or agent name otherwise.
    author_id: str | None = None

    @field_validator("text")
    @classmethod
    def _bounded(cls, value: str) -> str:
        if len(value) > MAX_MESSAGE_CHARS:
            raise ValueError(
                f"message has {len(value)} characters; the limit is {MAX_MESSAGE_CHARS}"
            )
        return value

    @model_validator(mode="after")
    def _ids(self) -> Self:
        check_id(self.id, "message id")
        return self
