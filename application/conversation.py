"""What a host says about the conversation it calls from."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from eden_memory.domain.ids import AgentId, MessageId, SessionId, UserId
from eden_memory.domain.model_choice import ModelRole, reflection_role
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import (
    ActiveScopes,
    AgentMemoryConfig,
    SessionIdentity,
    resolve_scopes,
)
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.stores import SessionProfile


@dataclass(frozen=True)
class Conversation:
    """An agent (and its memory toggles), a session and its users, and the user's tier."""

    agent: AgentMemoryConfig
    session: SessionIdentity
    tier: int = 0
    preview: bool = False

    def scopes(self, settings: MemorySettings) -> ActiveScopes:
        return resolve_scopes(settings.enabled, self.agent, self.session)

    def reflection_role(self, settings: MemorySettings) -> ModelRole:
        """The model role of this conversation's reflections (premium by tier or preview)."""
        return reflection_role(self.tier, self.preview, settings.models)

    def profile(self, settings: MemorySettings) -> SessionProfile:
        role = self.reflection_role(settings)
        return SessionProfile(
            agent_id=AgentId(self.session.agent_id),
            session_id=SessionId(self.session.session_id),
            user_ids=tuple(UserId(u) for u in self.session.user_ids),
            user_memory_enabled=self.agent.user_memory_enabled,
            agent_memory_enabled=self.agent.agent_memory_enabled,
            memory_instructions=self.agent.memory_instructions,
            premium=role is ModelRole.REFLECTION_PREMIUM,
        )


def new_message(
    role: Role | str,
    text: str,
    sent_at: datetime,
    author_id: str | None = None,
    message_id: str | None = None,
) -> Message:
    """A message with a fresh id when the host has none (ids make recording retry-safe)."""
    return Message(
        id=MessageId(message_id or uuid.uuid4().hex),
        role=Role(role),
        text=text,
        sent_at=sent_at,
        author_id=author_id,
    )
