"""Memory for a Google ADK agent (extra ``adk``): ADK's memory service, and the agent's side.

``EdenMemoryService(memory)`` is an ADK ``BaseMemoryService`` over ``MemoryService``: the ADK
app name is the agent id, the ADK user the user, the ADK session the session::

    memory_service = EdenMemoryService(memory)
    agent = memory_service.attach(agent)   # context + search_facts + each turn recorded
    runner = Runner(agent=agent, app_name="support-bot", session_service=sessions,
                    memory_service=memory_service)
    ...
    await memory_service.add_session_to_memory(session)   # the conversation is over

``add_events_to_memory`` (what ``attach``'s callback calls after every turn) records the
events, and formation runs in the background when due; ``add_session_to_memory`` records the
whole session and ends it (forms now), since ADK calls it for a finished session.
``search_memory`` (ADK's ``load_memory`` and ``preload_memory`` tools) returns facts;
``add_memory`` stores the user's facts directly; ``delete_memory`` deletes one of the user's
own facts by the id ``search_memory`` gave it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from eden_memory.adapters.integrations.google_adk_agent import MemoryTool, TurnRecorder
from eden_memory.application.conversation import Conversation
from eden_memory.application.search import SearchResult
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, MissingExtraError, NotFoundError
from eden_memory.domain.scopes import AgentMemoryConfig, Scope

try:
    from google.adk.agents import LlmAgent
    from google.adk.events import Event
    from google.adk.memory import BaseMemoryService
    from google.adk.memory.base_memory_service import SearchMemoryResponse
    from google.adk.memory.memory_entry import MemoryEntry
    from google.adk.sessions import Session
    from google.genai import types
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the Google ADK integration", "adk", "google-adk") from None

# ADK may add events with no session (its interface allows it); they share this one.
NO_SESSION = "adk-no-session"
# search_memory has no session; facts are agent- and user-scoped, so any id serves.
SEARCH_SESSION = "adk-search"


class EdenMemoryService(BaseMemoryService):
    """ADK's memory service on eden-memory (see the module).

    ``agents``: the memory toggles of agents whose id is an ADK app name; any other app is
    an agent with user and agent memory on.
    """

    def __init__(self, memory: MemoryService, agents: Iterable[AgentMemoryConfig] = ()) -> None:
        self.memory = memory
        self._agents = {config.agent_id: config for config in agents}

    def __deepcopy__(self, memo: dict[int, Any]) -> EdenMemoryService:
        """The service itself, like ``MemoryService``: ADK deep-copies requests that hold
        the memory tool, and every copy of the tool must reach this service."""
        return self

    def conversation(self, app_name: str, user_id: str, session_id: str) -> Conversation:
        """The conversation an ADK app, user and session are."""
        agent = self._agents.get(app_name, app_name)
        return self.memory.conversation(agent, session_id, [user_id])

    def attach(self, agent: LlmAgent) -> LlmAgent:
        """A copy of ``agent`` with the memory tool (context before every model call,
        ``search_facts`` when offered) and every turn recorded after it."""
        after = agent.after_agent_callback
        callbacks = after if isinstance(after, list) else [after] if after else []
        tools = [*agent.tools, MemoryTool(self)]
        recorder = TurnRecorder(self)
        return agent.clone({"tools": tools, "after_agent_callback": [*callbacks, recorder]})

    async def add_session_to_memory(self, session: Session) -> None:
        chat = self.conversation(session.app_name, session.user_id, session.id)
        await self.memory.record_messages(chat, turn_of(session.events, session.user_id))
        await self.memory.end_session(chat)

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        chat = self.conversation(app_name, user_id, session_id or NO_SESSION)
        await self.memory.record_messages(chat, turn_of(events, user_id))

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Store memories the host already has as the user's facts, with no LLM (one line
        each; exact duplicates dropped). A memory that is not a valid fact is an
        ``InvalidInputError`` naming it; the valid ones are stored."""
        now = self.memory.clock.now()
        facts = [_fact(entry, app_name, user_id, now) for entry in memories]
        report = await self.memory.admin.add_facts(facts)
        if report.rejected:
            reasons = "; ".join(f"memories[{r.index}]: {r.reason}" for r in report.rejected)
            raise InvalidInputError(f"memories not stored: {reasons}")

    async def delete_memory(
        self, *, app_name: str, user_id: str, memory_id: str | None = None
    ) -> None:
        """Delete, for good, one fact of the user's own (``MemoryEntry.id``).

        The agent's facts are shared by every user, so one user cannot delete them here
        (``memory.admin.delete_fact`` can); another user's fact, or an unknown id, is
        ``NotFoundError`` without saying which. ``memory_id=None`` is refused:
        ``memory.admin.erase_user`` erases all of a user's memory.
        """
        if memory_id is None:
            raise InvalidInputError(
                "delete_memory needs the memory_id of a MemoryEntry; "
                "memory.admin.erase_user erases all of a user's memory"
            )
        try:
            fact = await self.memory.admin.get_fact(app_name, memory_id)
        except NotFoundError:
            fact = None
        if fact is not None and fact.scope is Scope.AGENT:
            raise InvalidInputError(
                f"memory {memory_id!r} is the agent's, shared by every user: "
                "only memory.admin.delete_fact deletes it"
            )
        if fact is None or fact.scope is not Scope.USER or fact.user_id != user_id:
            raise NotFoundError(f"user {user_id!r} of {app_name!r} has no memory {memory_id!r}")
        await self.memory.admin.delete_fact(app_name, memory_id)

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        """The facts found for ``query`` (cut to the longest query searched; a user's whole
        message is what ``preload_memory`` sends)."""
        chat = self.conversation(app_name, user_id, SEARCH_SESSION)
        limit = self.memory.settings.search.max_query_chars
        if not query.strip() or not self.memory.search_offered(chat):
            return SearchMemoryResponse()
        found = await self.memory.search_facts(chat, [query.strip()[:limit]])
        return SearchMemoryResponse(memories=[memory_entry(hit) for hit in found.results])


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


def _fact(entry: MemoryEntry, agent_id: str, user_id: str, now: datetime) -> dict[str, Any]:
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


__all__ = ["EdenMemoryService", "memory_entry", "turn_of"]
