"""ADK's values as eden-memory's, and back: events as messages, facts as ``MemoryEntry``,
memories a host adds as facts, and the session an ADK session is."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from eden_memory.application.search import SearchResult
from eden_memory.domain.errors import InvalidInputError, MissingExtraError

try:
    from google.adk.events import Event
    from google.adk.memory.memory_entry import MemoryEntry
    from google.genai import types
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the Google ADK integration", "adk", "google-adk") from None


def session_of(user_id: str, session_id: str) -> str:
    """The memory's session id for an ADK session, unique per user as ADK's are.

    ADK keys a session by app, user and id, so two users may each have a session "s1"; the
    memory keys one by agent and id, so the user goes into it. The user id's length comes
    first, so no pair of ids (either may hold ``/`` or ``:``) gives another pair's."""
    return f"{len(user_id)}:{user_id}/{session_id}"


def memory_entry(hit: SearchResult) -> MemoryEntry:
    """A fact as ADK shows memories: its text, when it was formed, its scope and score.
    No author: a fact is a statement about someone, not something they said."""
    fact = hit.fact
    metadata: dict[str, Any] = {"scope": fact.scope.value, "relevance": hit.relevance}
    if hit.newer is not None:  # a newer memory about the same thing outranks this one
        metadata["newer"] = hit.newer
    return MemoryEntry(
        id=fact.id,
        content=types.Content(role="user", parts=[types.Part(text=fact.content)]),
        timestamp=fact.formed_at.isoformat(),
        custom_metadata=metadata,
    )


def fact_of(entry: MemoryEntry, agent_id: str, user_id: str, now: datetime) -> dict[str, Any]:
    """The fact of a memory; its ``custom_metadata`` may say what it supersedes (``key``,
    ``supersedes``) and until when it holds (``valid_until``), as direct ingestion takes them."""
    parts = entry.content.parts or []
    text = " ".join(part.text for part in parts if part.text)
    formed = _time(entry.timestamp) if entry.timestamp else now
    fact = {"content": text, "scope": "user", "agent_id": agent_id, "user_id": user_id}
    told = entry.custom_metadata or {}
    fresh = {name: told[name] for name in FRESHNESS if name in told}
    return fact | {"formed_at": formed, "id": entry.id} | fresh


FRESHNESS = ("key", "supersedes", "valid_until")


def _time(timestamp: str) -> datetime:
    """ADK's ISO 8601 time; without an offset it is local time, as ADK writes it."""
    try:
        return datetime.fromisoformat(timestamp).astimezone(UTC)
    except ValueError:
        raise InvalidInputError(f"memory timestamp {timestamp!r} is not ISO 8601") from None


def turn_of(events: Sequence[Event], user_id: str) -> list[dict[str, Any]]:
    """ADK events as Gemini contents with their ids, times and authors: the user's events
    are the user's, every other author's the agent's (function responses: tool messages).
    Partial (streamed) events and events without content are left out."""
    out: list[dict[str, Any]] = []
    for event in events:
        content = event.content
        if event.partial or content is None or not content.parts:
            continue
        said = content.model_dump(exclude_none=True)
        by_user = event.author == "user"
        out.append(
            said
            | {
                "role": "user" if by_user else "model",
                "id": event.id or None,
                "sent_at": datetime.fromtimestamp(event.timestamp, UTC),
                "author_id": user_id if by_user else None,
            }
        )
    return out


__all__ = ["fact_of", "memory_entry", "session_of", "turn_of"]
