"""Reflections: interpreted memory, buffered until a consolidation absorbs them."""

from __future__ import annotations

from typing import Self

from pydantic import field_validator, model_validator

from eden_memory.domain.ids import (
    AgentId,
    MessageId,
    ReflectionId,
    SessionId,
    UserId,
    check_id,
    check_sources,
)
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.models.provenance import Origin, distinct
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import single_line


class Reflection(Record):
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

    @field_validator("content")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return single_line(value, what="reflection")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        check_id(self.id, "reflection id")
        check_sources(self.source_session_id, self.source_message_ids)
        ScopeKey(self.scope, self.agent_id, self.user_id, self.session_id)
        for user in self.source_user_ids:
            check_id(user, "provenance user id")
        object.__setattr__(self, "source_user_ids", distinct(self.source_user_ids))
        return self

    @property
    def origin(self) -> Origin:
        return Origin(
            session_id=self.source_session_id,
            user_ids=self.source_user_ids,
            message_ids=self.source_message_ids,
        )

    @property
    def key(self) -> ScopeKey:
        return ScopeKey(self.scope, self.agent_id, self.user_id, self.session_id)

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
