"""The consolidated blob of one scope key: the merged, word-limited memory."""

from __future__ import annotations

from typing import Self

from pydantic import Field, field_validator, model_validator

from eden_memory.domain.ids import AgentId, SessionId, UserId, check_id
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.models.provenance import distinct
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import blob_text


class ConsolidatedMemory(Record):
    scope: Scope
    agent_id: AgentId
    user_id: UserId | None = None
    session_id: SessionId | None = None
    content: str = ""
    word_limit: int = Field(gt=0)
    # 0: nothing consolidated yet. Every consolidation or replacement adds one.
    version: int = Field(default=0, ge=0)
    last_consolidated_at: UtcTime | None = None
    updated_at: UtcTime | None = None
    # Provenance: the sessions and users whose notes the blob absorbed, over all its versions.
    source_session_ids: tuple[SessionId, ...] = ()
    source_user_ids: tuple[UserId, ...] = ()
    # An erasure removed notes it had absorbed and no model could rebuild it: its text was
    # emptied, and the next consolidation rebuilds it from the notes that remain.
    needs_rebuild: bool = False

    @field_validator("content")
    @classmethod
    def _blob(cls, value: str) -> str:
        return blob_text(value) if value else ""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        ScopeKey(self.scope, self.agent_id, self.user_id, self.session_id)
        for value in (*self.source_session_ids, *self.source_user_ids):
            check_id(value, "provenance id")
        object.__setattr__(self, "source_session_ids", distinct(self.source_session_ids))
        object.__setattr__(self, "source_user_ids", distinct(self.source_user_ids))
        return self

    @property
    def key(self) -> ScopeKey:
        return ScopeKey(self.scope, self.agent_id, self.user_id, self.session_id)

    @classmethod
    def empty(cls, key: ScopeKey, word_limit: int) -> ConsolidatedMemory:
        return cls(
            scope=key.scope,
            agent_id=key.agent_id,
            user_id=key.user_id,
            session_id=key.session_id,
            word_limit=word_limit,
        )
