"""What a host says about the conversation it calls from."""

from __future__ import annotations

import uuid
from datetime import datetime

from eden_memory.domain.ids import MessageId
from eden_memory.domain.models import Message, Role
from eden_memory.domain.profile import SessionProfile

# What a host holds for the conversation it calls from: the session's profile, built by
# ``MemoryService.conversation`` (the premium model decided there, once).
Conversation = SessionProfile


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
