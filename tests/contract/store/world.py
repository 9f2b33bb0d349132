"""What every store contract test builds on: the adapter's fixture, fixed times, builders.

An adapter provides exactly one thing, the ``make_stores`` fixture: a factory that returns a
new, empty store as a ``Stores`` on every call (several per test, for property tests) and
cleans up after the test. Each test takes the fields it uses (``facts``, ``ranking``,
``sessions``, ``buffers``, ``revisions``, ``contexts``: fixtures of one ``Stores``), or
``stores`` itself;
everything else the suite builds itself, through the ports only.
"""

from __future__ import annotations

import hashlib
import math
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import ClassVar, Protocol, cast

import pytest

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import Claim, Fact, FactStatus, Message, Reflection, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import (
    BufferStore,
    ContextStore,
    FactRanking,
    FactReads,
    FactRecords,
    FactStore,
    NoteRecords,
    PendingMessage,
    RevisionStore,
    SessionRecords,
    SessionStore,
    Stores,
)


class WholeFacts(FactStore, FactReads, FactRecords, Protocol):
    """Every fact port at once: what one adapter object implements, and the suite holds it to."""


def whole_facts(stores: Stores) -> WholeFacts:
    """The one object behind every fact port of ``stores``, as the adapters bundle it."""
    assert len({id(stores.facts), id(stores.fact_reads), id(stores.fact_records)}) == 1
    return cast(WholeFacts, stores.facts)


class WholeSessions(SessionStore, SessionRecords, Protocol):
    """Every session port at once (see ``WholeFacts``)."""


class WholeBuffers(BufferStore, NoteRecords, Protocol):
    """Every note port at once (see ``WholeFacts``)."""


def whole_sessions(stores: Stores) -> WholeSessions:
    assert id(stores.sessions) == id(stores.session_records)
    return cast(WholeSessions, stores.sessions)


def whole_buffers(stores: Stores) -> WholeBuffers:
    assert id(stores.buffers) == id(stores.note_records)
    return cast(WholeBuffers, stores.buffers)


StoreFactory = Callable[[], Awaitable[Stores]]

# Whole seconds: every store keeps at least millisecond precision.
T0 = datetime(2026, 1, 15, 12, 0, 0, tzinfo=UTC)
A = AgentId("agent-a")
B = AgentId("agent-b")
U1 = UserId("user-1")
U2 = UserId("user-2")
S1 = SessionId("session-1")
S2 = SessionId("session-2")
BOTH = frozenset({Scope.AGENT, Scope.USER})


def sees(agent: AgentId, user: UserId | None, scopes: frozenset[Scope] = BOTH) -> FactVisibility:
    """What a request of ``agent`` and ``user`` may see (user scope only with a user)."""
    return FactVisibility(agent, user, scopes if user is not None else scopes - {Scope.USER})


def ids(items: Sequence[Fact]) -> list[FactId]:
    return [f.id for f in items]


@dataclass(frozen=True)
class Builder:
    """Facts, vectors and reflections in the suite's embedding space."""

    space: EmbeddingSpace

    def fact(
        self,
        content: str,
        *,
        agent: AgentId = A,
        user: UserId | None = None,
        formed_at: datetime = T0,
        status: FactStatus = FactStatus.ACTIVE,
        space: EmbeddingSpace | None = None,
    ) -> Fact:
        """A user fact when ``user`` is given, an agent fact otherwise."""
        space = space or self.space
        return Fact(
            id=FactId(f"fact-{uuid.uuid4().hex}"),
            content=content,
            scope=Scope.USER if user is not None else Scope.AGENT,
            agent_id=agent,
            user_id=user,
            formed_at=formed_at,
            created_at=formed_at,
            updated_at=formed_at,
            embedding_model=space.model,
            embedding_dim=space.dimension,
            status=status,
            retired_at=formed_at if status is FactStatus.RETIRED else None,
        )

    def axis(self, i: int) -> list[float]:
        """The unit vector along axis ``i``: axes are mutually orthogonal."""
        vector = [0.0] * self.space.dimension
        vector[i % self.space.dimension] = 1.0
        return vector

    def at_cosine(self, cosine: float, towards: int = 0, away: int = 1) -> list[float]:
        """A unit vector whose cosine to ``axis(towards)`` is exactly ``cosine``."""
        vector = [0.0] * self.space.dimension
        vector[towards] = cosine
        vector[away] = math.sqrt(max(0.0, 1.0 - cosine * cosine))
        return vector

    def hashed(self, text: str) -> list[float]:
        """A fixed pseudo-random unit vector for ``text``."""
        raw: list[float] = []
        while len(raw) < self.space.dimension:
            block = f"{len(raw)}:{text}".encode()
            raw.extend(byte - 127.5 for byte in hashlib.sha256(block).digest())
        raw = raw[: self.space.dimension]
        norm = math.sqrt(sum(v * v for v in raw))
        return [v / norm for v in raw]

    def reflection(
        self, key: ScopeKey, content: str, formed_at: datetime = T0, source: SessionId = S1
    ) -> Reflection:
        return Reflection.in_scope(
            key,
            id=ReflectionId(f"refl-{uuid.uuid4().hex}"),
            content=content,
            source_session_id=source,
            formed_at=formed_at,
            created_at=formed_at,
        )


def message(n: int, author: str = "user-1", role: Role = Role.USER) -> PendingMessage:
    """Message number ``n``, sent ``n`` seconds after T0, weighing ``n`` tokens."""
    sent = Message(
        id=MessageId(f"msg-{n}"),
        role=role,
        text=f"message number {n}",
        sent_at=T0 + timedelta(seconds=n),
        author_id=author,
    )
    return PendingMessage(sent, weighted_tokens=float(n))


def messages(first: int, last: int, author: str = "user-1") -> list[PendingMessage]:
    return [message(n, author) for n in range(first, last + 1)]


def profile(
    session: SessionId = S1, users: tuple[UserId, ...] = (U1,), agent: AgentId = A
) -> SessionProfile:
    return SessionProfile(
        agent_id=agent,
        session_id=session,
        user_ids=users,
        user_memory_enabled=True,
        agent_memory_enabled=True,
        memory_instructions="",
        premium=False,
    )


TTL = 60.0  # seconds a claim lasts in the suite


def claimed(claim: Claim | None) -> list[str]:
    """The ids of a claim's messages, in the order the store handed them out."""
    assert claim is not None, "expected a claim"
    return [m.id for m in claim.messages]


async def claim(
    sessions: SessionStore,
    claim_id: str,
    *,
    at: timedelta = timedelta(0),
    session: SessionId = S1,
    agent: AgentId = A,
    min_messages: int = 1,
    limit: int = 100,
) -> Claim | None:
    """Claim session S1 of agent A at ``T0 + at``, with the suite's TTL unless told otherwise."""
    return await sessions.claim_messages(
        agent, session, claim_id, T0 + at, TTL, min_messages, limit
    )


class StoreFixtures:
    """The adapter-specific part of the suite: override ``make_stores``; the rest is given."""

    # Small vectors keep the suite fast; adapters with fixed-size indexes build them for it.
    embedding_dimension: ClassVar[int] = 8

    @pytest.fixture
    def make_stores(self) -> StoreFactory:
        raise NotImplementedError("a store contract subclass must provide `make_stores`")

    @pytest.fixture
    async def stores(self, make_stores: StoreFactory) -> Stores:
        return await make_stores()

    @pytest.fixture
    def facts(self, stores: Stores) -> WholeFacts:
        return whole_facts(stores)

    @pytest.fixture
    def ranking(self, stores: Stores) -> FactRanking:
        return stores.ranking

    @pytest.fixture
    def sessions(self, stores: Stores) -> WholeSessions:
        return whole_sessions(stores)

    @pytest.fixture
    def buffers(self, stores: Stores) -> WholeBuffers:
        return whole_buffers(stores)

    @pytest.fixture
    def revisions(self, stores: Stores) -> RevisionStore:
        return stores.revisions

    @pytest.fixture
    def contexts(self, stores: Stores) -> ContextStore:
        return stores.contexts

    @pytest.fixture
    def space(self) -> EmbeddingSpace:
        return EmbeddingSpace("contract-embedder", self.embedding_dimension)

    @pytest.fixture
    def build(self, space: EmbeddingSpace) -> Builder:
        return Builder(space)
