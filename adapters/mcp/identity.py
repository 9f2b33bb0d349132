"""Who an MCP call speaks for: the server's configuration first, the call only where allowed.

A server configured for a user serves that user only: a call naming anyone else is refused,
never silently re-targeted. What the configuration leaves open, a call may fill in.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig


@dataclass(frozen=True)
class ServerIdentity:
    """The agent the server speaks for, and the user and session it is pinned to (if any)."""

    agent: AgentMemoryConfig
    user_id: str | None = None
    session_id: str | None = None
    default_session: str = field(default_factory=lambda: f"mcp-{uuid.uuid4().hex[:12]}")

    def conversation(
        self, memory: MemoryService, user_id: str | None, session_id: str | None
    ) -> Conversation:
        user = _pinned("user", self.user_id, user_id)
        session = _pinned("session", self.session_id, session_id) or self.default_session
        return memory.conversation(self.agent, session, [user] if user else [])


def _pinned(what: str, configured: str | None, asked: str | None) -> str | None:
    if configured is not None and asked not in (None, "", configured):
        raise InvalidInputError(
            f"refused: this server is configured for {what} {configured!r} and cannot act "
            f"for {what} {asked!r}"
        )
    return configured or asked or None
