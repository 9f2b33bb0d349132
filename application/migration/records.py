"""Building one eden-memory record from one v1 document, reporting whatever refuses.

``RecordPlanner`` holds the state of planning one agent: the plan so far and which v1
records are already accounted for (``claimed``), so a record referenced twice, or both
referenced and left over, is counted once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from eden_memory.application.migration.model import (
    AgentPlan,
    Kind,
    MigrationOptions,
    PlannedBlob,
    PlannedFact,
    PlannedReflection,
)
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import FactId, MessageId, SessionId, UserId
from eden_memory.domain.migration.values import (
    created_time,
    id_list,
    source_id,
    target_id,
    text,
    updated_time,
    valid_id,
)
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.problems import reason
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.settings import ScopeNumbers
from eden_memory.domain.text import word_count
from eden_memory.ports.migration import SESSIONS, V1Doc


def why(error: Exception) -> str:
    """A one-line reason for a refused value (``domain.problems``, not pydantic's essay)."""
    return reason(error)


class RecordPlanner:
    def __init__(
        self,
        agent_id: str,
        memories: Mapping[str, V1Doc],
        options: MigrationOptions,
        now: datetime,
        space: EmbeddingSpace,
        word_limits: ScopeNumbers,
    ) -> None:
        self.plan = AgentPlan(agent_id)
        self.agent_id = agent_id
        self.memories = memories
        self.options = options
        self.now = now
        self.space = space
        self.limits = word_limits
        self.claimed: set[str] = set()

    # -- memory_sessions records -------------------------------------------------------

    def take(self, kind: Kind, v1_id: str, expected_type: str, owner: str) -> V1Doc | None:
        """The referenced record, claimed; or None after reporting why it cannot be used."""
        if v1_id in self.claimed:
            self.plan.skip(kind, SESSIONS, v1_id, f"referenced again by {owner}; migrated once")
            return None
        doc = self.memories.get(v1_id)
        if doc is None:
            self.plan.skip(kind, SESSIONS, v1_id, f"dangling reference from {owner}")
            return None
        self.claimed.add(v1_id)
        found = doc.get("memory_type")
        if found != expected_type:
            self.plan.skip(
                kind, SESSIONS, v1_id, f"{owner} lists it but its memory_type is {found!r}"
            )
            return None
        return doc

    def _provenance(
        self, doc: V1Doc, kind: Kind, v1_id: str
    ) -> tuple[SessionId | None, tuple[MessageId, ...], datetime]:
        session = doc.get("source_session_id")
        session_id = valid_id(session)
        if session is not None and session_id is None:
            self.plan.note(kind, SESSIONS, v1_id, "unusable source_session_id left out")
        raw = id_list(doc.get("source_message_ids"))
        messages = tuple(MessageId(m) for m in (valid_id(r) for r in raw) if m is not None)
        if len(messages) != len(raw):
            self.plan.note(kind, SESSIONS, v1_id, "unusable source_message_ids left out")
        formed = created_time(doc)
        if formed is None:
            self.plan.note(kind, SESSIONS, v1_id, "no creation time: the migration time is used")
            formed = self.now
        return (SessionId(session_id) if session_id else None), messages, formed

    def reflection(self, kind: Kind, key: ScopeKey, v1_id: str, doc: V1Doc) -> None:
        content = text(doc.get("content"))
        if content is None:
            self.plan.skip(kind, SESSIONS, v1_id, "missing content")
            return
        session_id, messages, formed = self._provenance(doc, kind, v1_id)
        prefix = {Kind.USER_REFLECTION: "dir", Kind.AGENT_REFLECTION: "sug"}.get(kind, "epi")
        try:
            reflection = Reflection.in_scope(
                key,
                id=target_id(prefix, self.agent_id, v1_id),
                content=content,
                source_session_id=session_id,
                source_message_ids=messages,
                source_user_ids=(key.user_id,) if key.user_id else _sources(_related(doc)),
                formed_at=formed,
                created_at=formed,
            )
        except ValueError as error:
            self.plan.skip(kind, SESSIONS, v1_id, why(error))
            return
        self.plan.source_counts[kind] += 1
        self.plan.reflections.append(PlannedReflection(reflection, kind, v1_id))

    def fact(self, v1_id: str, doc: V1Doc, shard: str) -> None:
        content = text(doc.get("content"))
        if content is None:
            self.plan.skip(Kind.AGENT_FACT, SESSIONS, v1_id, "missing content")
            return
        session_id, messages, formed = self._provenance(doc, Kind.AGENT_FACT, v1_id)
        users = _related(doc)
        try:
            fact = Fact(
                id=FactId(target_id("fact", self.agent_id, v1_id)),
                content=content,
                scope=Scope.AGENT,
                agent_id=self.agent_id,
                source_session_id=session_id,
                source_message_ids=messages,
                source_user_ids=_sources(users),
                formed_at=formed,
                created_at=formed,
                updated_at=updated_time(doc) or formed,
                embedding_model=self.space.model,
                embedding_dim=self.space.dimension,
            )
        except ValueError as error:
            self.plan.skip(Kind.AGENT_FACT, SESSIONS, v1_id, why(error))
            return
        self.plan.source_counts[Kind.AGENT_FACT] += 1
        self.plan.facts.append(PlannedFact(fact, v1_id, shard, users))

    # -- blobs -------------------------------------------------------------------------

    def blob(
        self,
        kind: Kind,
        key: ScopeKey,
        content: str,
        limit: int,
        sources: Sequence[str],
        updated: datetime | None,
        collection: str,
    ) -> None:
        try:
            memory = ConsolidatedMemory(
                scope=key.scope,
                agent_id=key.agent_id,
                user_id=key.user_id,
                content=content,
                word_limit=limit,
                version=1,
                last_consolidated_at=updated,
                updated_at=updated,
            )
        except ValueError as error:
            for v1_id in sources:
                self.plan.skip(kind, collection, v1_id, why(error))
            return
        if word_count(memory.content) > limit:
            self.plan.note(
                kind,
                collection,
                sources[0] if sources else None,
                f"{word_count(memory.content)} words, over the {limit}-word limit: kept whole; "
                "the next consolidation shortens it",
            )
        self.plan.source_counts[kind] += len(sources)
        self.plan.blobs.append(PlannedBlob(memory, kind, tuple(sources)))


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _related(doc: V1Doc) -> tuple[str, ...]:
    """v1's ``related_users`` of a record, as ids (the report keeps them all)."""
    return tuple(u for u in (source_id(r) for r in _list(doc.get("related_users"))) if u)


def _sources(users: Sequence[str]) -> tuple[UserId, ...]:
    """v1's related users are whose words a shared record (an agent fact or note, a session's
    note) came from: its source users, every one (contributors too), so that erasure by origin
    treats it as a record formed here from the same users: it goes with the last of them, and
    loses each other's id. A user's own note is that user's alone."""
    return tuple(UserId(u) for u in users if valid_id(u))
