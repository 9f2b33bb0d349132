"""A batch of host messages, whatever their shape, into ``Message`` values, all or none.

Shapes: Gemini contents (``parts``), OpenAI Responses items (``type``), and everything with
a ``role`` and a ``content`` or ``text`` (OpenAI chat, Anthropic, plain dicts).

Every item is read before anything is returned: a batch with one bad message raises one
``InvalidInputError`` that names every bad field, and the host records nothing half-way.
System and developer messages are dropped (they are the host's instructions, sent again
every turn, not something said), and so are the memory's own ``search_facts`` calls and
results (memory read back) and messages left with no text.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from eden_memory.application.messages.chat import read_chat
from eden_memory.application.messages.draft import Draft, Problems, as_mapping
from eden_memory.application.messages.gemini import read_gemini
from eden_memory.application.messages.memory_tool import memory_call_ids, without_memory_tool
from eden_memory.application.messages.responses import is_item, read_item
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.models import Message
from eden_memory.domain.problems import where

HostMessage = Message | Mapping[str, Any] | BaseModel
_INSTRUCTIONS = {"system", "developer"}


def to_messages(items: Sequence[HostMessage], now: datetime) -> list[Message]:
    """Messages from OpenAI, Anthropic, Gemini or plain shapes (any mix); ``now`` dates the
    ones that carry no ``sent_at``. Raises ``InvalidInputError`` naming every bad field."""
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Sequence):
        raise InvalidInputError("messages must be a list of messages")
    problems = Problems()
    read = [item if isinstance(item, Message) else as_mapping(item) for item in items]
    own = memory_call_ids([data for data in read if isinstance(data, Mapping)])
    messages = [
        _one(item, data, f"messages[{i}]", now, problems, own)
        for i, (item, data) in enumerate(zip(items, read, strict=True))
    ]
    _unique_ids(messages, problems)
    if problems.found:
        raise InvalidInputError("invalid messages, nothing recorded: " + "; ".join(problems.found))
    return [m for m in messages if m is not None]


def _unique_ids(messages: list[Message | None], problems: Problems) -> None:
    """Two messages of one batch with one id: the store would keep only the first."""
    first: dict[str, int] = {}
    for i, message in enumerate(messages):
        if message is None:
            continue
        if message.id in first:
            problems.add(
                f"messages[{i}].id", f"{message.id!r} is also messages[{first[message.id]}]'s"
            )
        first.setdefault(message.id, i)


def _one(
    item: object,
    data: Message | Mapping[str, Any] | None,
    path: str,
    now: datetime,
    problems: Problems,
    own: set[str],
) -> Message | None:
    if isinstance(data, Message):
        return data
    if data is None:
        problems.add(path, f"must be a message object, got {type(item).__name__}")
        return None
    if str(data.get("role", "")).lower() in _INSTRUCTIONS:
        return None
    data = without_memory_tool(data, own)
    if data is None:
        return None
    if "parts" in data:
        draft = read_gemini(data, path, problems)
    elif is_item(data):
        draft = read_item(data, path, problems)
    else:
        draft = read_chat(data, path, problems)
    if draft is None or not draft.text.strip():
        return None
    return _message(draft, path, now, problems)


def _message(draft: Draft, path: str, now: datetime, problems: Problems) -> Message | None:
    try:
        return Message(
            id=draft.id or uuid.uuid4().hex,
            role=draft.role,
            text=draft.text,
            sent_at=draft.sent_at or now,
            author_id=draft.author_id,
            author_name=draft.author_name,
        )
    except ValidationError as error:
        for e in error.errors(include_url=False):
            problems.add(f"{path}.{where(e['loc']) or 'message'}", " ".join(e["msg"].split()))
        return None
