"""Which conversation an invocation is: read from its runtime context and its config.

One compiled agent serves every user: each ``invoke`` says who is talking in which session,
LangGraph's way. Each name is looked up in the runtime context (``context=...``: a dataclass,
a pydantic model or a dict), then in ``config["configurable"]``:

- ``user_id`` (or ``user_ids``, a list, for a group or an agent-only session: ``[]``);
- ``session_id``, else the ``thread_id`` of ``configurable`` (the checkpointer's thread);
- ``agent_id``, optional: the middleware's agent when absent.

A missing user or session is an error, never a default: a turn filed under no user, or under
another user's session, would put one user's words where others can see them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eden_memory.application.conversation import Conversation
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig

NAMES = ("user_id", "user_ids", "session_id", "agent_id")


def conversation_of(
    memory: MemoryService,
    agent: AgentMemoryConfig,
    context: object,
    config: Mapping[str, Any] | None,
) -> Conversation:
    """The conversation of one invocation (see the module)."""
    configurable = dict((config or {}).get("configurable") or {})
    given = {name: _read(context, name, configurable) for name in NAMES}
    session = given["session_id"] or _thread(configurable.get("thread_id"))
    if session is None:
        raise InvalidInputError(
            "eden-memory needs the invocation's session: "
            "config={'configurable': {'thread_id': ...}} or a context with session_id"
        )
    users = _users(given["user_id"], given["user_ids"])
    agent_id = given["agent_id"]
    if agent_id is not None and agent_id != agent.agent_id:
        return memory.conversation(_text(agent_id, "agent_id"), _text(session, "session"), users)
    return memory.conversation(agent, _text(session, "session"), users)


def _read(context: object, name: str, configurable: Mapping[str, Any]) -> Any:
    found = context.get(name) if isinstance(context, Mapping) else getattr(context, name, None)
    return found if found is not None else configurable.get(name)


def _thread(thread_id: object) -> object:
    """LangGraph's thread id as text: checkpointers take a UUID or a number too."""
    number = isinstance(thread_id, int) and not isinstance(thread_id, bool)
    return str(thread_id) if number or isinstance(thread_id, UUID) else thread_id


def _users(user_id: object, user_ids: object) -> list[str]:
    if user_id is not None and user_ids is not None:
        raise InvalidInputError("give user_id or user_ids, not both")
    if user_id is not None:
        return [_text(user_id, "user_id")]
    if isinstance(user_ids, Sequence) and not isinstance(user_ids, str):
        return [_text(user, "user_ids[]") for user in user_ids]
    if user_ids is not None:
        raise InvalidInputError(f"user_ids must be a list of strings, got {user_ids!r:.60}")
    raise InvalidInputError(
        "eden-memory needs the invocation's user: a context with user_id (or user_ids=[] for "
        "a session with no user), or config={'configurable': {'user_id': ...}}"
    )


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a string, got {type(value).__name__}")
    return value


__all__ = ["NAMES", "conversation_of"]
