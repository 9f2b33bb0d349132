"""What the in-memory store holds, and the bookkeeping every part of it shares."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Message, Reflection, SessionState
from eden_memory.domain.scopes import FactVisibility, ScopeKey


@dataclass
class StoredFact:
    fact: Fact
    vector: list[float]
    # The space this vector belongs to; after a re-embedding, unmoved facts keep the old one.
    space: EmbeddingSpace


@dataclass
class StoredMessage:
    message: Message
    weighted_tokens: float
    seq: int
    claim_id: str | None = None
    formed: bool = False


@dataclass
class StoredSession:
    state: SessionState
    messages: dict[MessageId, StoredMessage] = field(default_factory=dict)
    plan: str | None = None  # saved by a formation until its claim completes

    def pending(self) -> list[StoredMessage]:
        """Unformed messages, oldest first (claimed ones included: they are not formed yet)."""
        waiting = [m for m in self.messages.values() if not m.formed]
        return sorted(waiting, key=lambda m: (m.message.sent_at, m.seq))

    def with_pending_counts(self, state: SessionState) -> SessionState:
        """Counts recomputed from the messages, so they never drift by float rounding."""
        pending = self.pending()
        return state.evolve(
            pending_messages=len(pending),
            pending_tokens=max(0.0, sum(m.weighted_tokens for m in pending)),
        )


@dataclass
class MemoryState:
    """Plain dictionaries; records are frozen pydantic values, vectors are private copies."""

    facts: dict[FactId, StoredFact] = field(default_factory=dict)
    space: EmbeddingSpace | None = None
    reflections: dict[ReflectionId, Reflection] = field(default_factory=dict)
    consolidated: dict[ScopeKey, ConsolidatedMemory] = field(default_factory=dict)
    sessions: dict[tuple[AgentId, SessionId], StoredSession] = field(default_factory=dict)
    revisions: Counter[ScopeKey] = field(default_factory=Counter)
    sequence: itertools.count[int] = field(default_factory=itertools.count)

    def current_space(self) -> EmbeddingSpace | None:
        """The store's space while it holds vectors; an emptied store accepts any space."""
        return self.space if self.facts else None

    def bump(self, keys: Iterable[ScopeKey]) -> None:
        for key in set(keys):
            self.revisions[key] += 1

    def visible(self, visibility: FactVisibility) -> Iterator[StoredFact]:
        """Active facts the visibility admits: the pre-filter of every read for a request."""
        for stored in self.facts.values():
            fact = stored.fact
            if fact.is_active and visibility.admits(fact.agent_id, fact.scope, fact.user_id):
                yield stored

    def buffer(self, reflections: Iterable[Reflection]) -> None:
        """Insert new reflections; an id already stored stays as it is (retries are harmless)."""
        added = [r for r in reflections if r.id not in self.reflections]
        for reflection in added:
            self.reflections[reflection.id] = reflection
        self.bump(r.key for r in added)


class StateHolder:
    """What each concern's class holds: the one state they share, and a turn yielded before
    each call.

    Yielding once at the start of every call lets concurrent callers interleave the way they
    would against a real database, while the work itself never awaits, so each call is atomic.
    """

    def __init__(self, state: MemoryState) -> None:
        self._state = state

    async def _turn(self) -> None:
        await asyncio.sleep(0)


def copy_vector(vector: Iterable[float]) -> list[float]:
    return [float(v) for v in vector]
