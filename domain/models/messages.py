"""Conversation messages, as the host records them after a turn."""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import Field, field_validator, model_validator

from eden_memory.domain.ids import MessageId, UserId, check_id
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.text import check_encodable

MAX_MESSAGE_CHARS = 200_000


class Role(StrEnum):
    """Who spoke. Hosts' names are accepted too: ``assistant`` and ``model`` (Gemini) are the
    agent, ``function`` is a tool, ``system`` and ``developer`` are other."""

    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    OTHER = "other"

    @classmethod
    def _missing_(cls, value: object) -> Role | None:
        return _HOST_ROLES.get(value.lower()) if isinstance(value, str) else None


_HOST_ROLES = {
    "assistant": Role.AGENT,
    "model": Role.AGENT,
    "function": Role.TOOL,
    "system": Role.OTHER,
    "developer": Role.OTHER,
    "user": Role.USER,
    "agent": Role.AGENT,
    "tool": Role.TOOL,
    "other": Role.OTHER,
}


class Message(Record):
    id: MessageId
    role: Role
    text: str
    sent_at: UtcTime
    # Who wrote it: a user id for user messages, a tool or agent name otherwise.
    author_id: str | None = None
    # How the author is called ("Alice Smith"): shown to the extraction model instead of the id.
    author_name: str | None = Field(default=None, max_length=200)
    # Who was present: the session's users once the turn that brought it was recorded. The
    # store sets it (a host's value is replaced); None for a message stored before it did.
    present: tuple[UserId, ...] | None = None

    @field_validator("text")
    @classmethod
    def _bounded(cls, value: str) -> str:
        check_encodable(value, "message text")
        if len(value) > MAX_MESSAGE_CHARS:
            raise ValueError(
                f"message has {len(value)} characters; the limit is {MAX_MESSAGE_CHARS}"
            )
        return value

    @field_validator("author_id")
    @classmethod
    def _encodable(cls, value: str | None) -> str | None:
        # author_name needs no check: its max_length already refuses a lone surrogate
        return None if value is None else check_encodable(value, "author_id")

    @model_validator(mode="after")
    def _ids(self) -> Self:
        check_id(self.id, "message id")
        for user in self.present or ():
            check_id(user, "present user id")
        return self
