"""Reflections: interpreted memory, buffered until a consolidation absorbs them."""

from __future__ import annotations

from datetime import datetime
from typing import Self

from pydantic import Field, field_validator, model_validator

from eden_memory.domain.ids import (
    AgentId,
    MessageId,
    ReflectionId,
    SessionId,
    UserId,
    check_id,
)
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.models.provenance import Sourced
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import check_encodable, single_line


class ReflectionRevision(Record):
    """A content a reflection had before a person edited it."""

    version: int
    content: str
    replaced_at: UtcTime
    reason: str = ""

    @field_validator("reason")
    @classmethod
    def _encodable_reason(cls, value: str) -> str:
        return check_encodable(value, "a revision's reason")


class Reflection(Sourced, Record):
    id: ReflectionId
    content: str
    scope: Scope
    agent_id: AgentId
    # The owner of a user or session reflection; provenance lives in source_*.
    user_id: UserId | None = None
    session_id: SessionId | None = None
    source_session_id: SessionId | None = None
    source_message_ids: tuple[MessageId, ...] = ()
    formed_at: UtcTime
    created_at: UtcTime
    absorbed: bool = False
    absorbed_at: UtcTime | None = None
    absorbed_into_version: int | None = None
    # The users whose messages it was formed from (see ``provenance``).
    source_user_ids: tuple[UserId, ...] = ()
    # Stored records from before reflections had versions read as version 1, no history.
    version: int = Field(default=1, ge=1)
    history: tuple[ReflectionRevision, ...] = ()

    @field_validator("content")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return single_line(value, what="reflection")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        check_id(self.id, "reflection id")
        self._check_sources()
        ScopeKey(self.scope, self.agent_id, self.user_id, self.session_id)
        return self

    @property
    def key(self) -> ScopeKey:
        return ScopeKey(self.scope, self.agent_id, self.user_id, self.session_id)

    def revised(self, content: str, now: datetime, reason: str = "") -> Reflection:
        """The reflection with new content, one version up; the old content goes to its history."""
        old = ReflectionRevision(
            version=self.version, content=self.content, replaced_at=now, reason=reason
        )
        return self.evolve(content=content, version=self.version + 1, history=(*self.history, old))

    @classmethod
    def in_scope(cls, key: ScopeKey, **fields: object) -> Reflection:
        """A reflection owned by ``key``."""
        return cls.model_validate(
            {
                "scope": key.scope,
                "agent_id": key.agent_id,
                "user_id": key.user_id,
                "session_id": key.session_id,
                **fields,
            }
        )
