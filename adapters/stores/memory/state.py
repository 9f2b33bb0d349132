"""What the in-memory store holds, and the bookkeeping every part of it shares."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from eden_memory.adapters.stores.memory.bm25 import Postings
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Message, Reflection, SessionState
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores.contexts import StoredContext

# (agent, scope, user): whose facts a partition holds.
Owner = tuple[str, Scope, str | None]


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
class Partition:
    """One owner's facts (of any status), and the keyword postings of the active ones."""

    facts: dict[FactId, StoredFact] = field(default_factory=dict)
    words: Postings = field(default_factory=Postings)


@dataclass
class MemoryState:
    """Plain dictionaries; records are frozen pydantic values, vectors are private copies.

    Facts are written through ``put`` and ``pop``, which keep them by owner as well, so a
    request reads only the partitions it may see (``visible``, ``visible_words``).
    """

    _facts: dict[FactId, StoredFact] = field(default_factory=dict)
    _partitions: dict[Owner, Partition] = field(default_factory=dict)
    space: EmbeddingSpace | None = None
    reflections: dict[ReflectionId, Reflection] = field(default_factory=dict)
    consolidated: dict[ScopeKey, ConsolidatedMemory] = field(default_factory=dict)
    sessions: dict[tuple[AgentId, SessionId], StoredSession] = field(default_factory=dict)
    revisions: Counter[ScopeKey] = field(default_factory=Counter)
    # The contexts kept with their sessions: by agent, then (session, variant), oldest saved
    # first.
    contexts: dict[AgentId, dict[tuple[SessionId, str], StoredContext]] = field(
        default_factory=dict
    )
    sequence: itertools.count[int] = field(default_factory=itertools.count)

    def current_space(self) -> EmbeddingSpace | None:
        """The store's space while it holds vectors; an emptied store accepts any space."""
        return self.space if self.facts else None

    def bump(self, keys: Iterable[ScopeKey]) -> None:
        for key in set(keys):
            self.revisions[key] += 1

    @property
    def facts(self) -> Mapping[FactId, StoredFact]:
        return self._facts

    def put(self, stored: StoredFact) -> None:
        """Store ``stored``, replacing the fact of its id wherever it was."""
        self.pop(stored.fact.id)
        fact = stored.fact
        self._facts[fact.id] = stored
        partition = self._partitions.setdefault(_owner(fact), Partition())
        partition.facts[fact.id] = stored
        if fact.is_active:
            partition.words.add(fact.id, fact.content)

    def pop(self, fact_id: FactId) -> StoredFact | None:
        stored = self._facts.pop(fact_id, None)
        if stored is not None:
            partition = self._partitions[_owner(stored.fact)]
            del partition.facts[fact_id]
            partition.words.remove(fact_id)
        return stored

    def partition_of(self, fact: Fact) -> Mapping[FactId, StoredFact]:
        """The facts of ``fact``'s owner."""
        partition = self._partitions.get(_owner(fact))
        return {} if partition is None else partition.facts

    def visible(self, visibility: FactVisibility) -> Iterator[StoredFact]:
        """Active facts the visibility admits: the pre-filter of every read for a request."""
        for partition in self._visible_partitions(visibility):
            yield from (s for s in partition.facts.values() if s.fact.is_active)

    def visible_words(self, visibility: FactVisibility) -> list[Postings]:
        """The keyword postings of the active facts the visibility admits."""
        return [p.words for p in self._visible_partitions(visibility)]

    def _visible_partitions(self, visibility: FactVisibility) -> list[Partition]:
        owners: list[Owner] = []
        if Scope.AGENT in visibility.scopes:
            owners.append((visibility.agent_id, Scope.AGENT, None))
        if Scope.USER in visibility.scopes and visibility.user_id is not None:
            owners.append((visibility.agent_id, Scope.USER, visibility.user_id))
        return [self._partitions[o] for o in owners if o in self._partitions]

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


def _owner(fact: Fact) -> Owner:
    return (fact.agent_id, fact.scope, fact.user_id)


def copy_vector(vector: Iterable[float]) -> list[float]:
    return [float(v) for v in vector]
