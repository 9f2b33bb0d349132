"""Facts and stores shared by the MongoDB adapter tests."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.mongo import (
    MongoBuffers,
    MongoFacts,
    MongoRanking,
    MongoRevisions,
    MongoSessions,
    MongoStoreOptions,
    mongo_stores,
)
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope

T0 = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
A = AgentId("agent-a")
U1 = UserId("user-1")
MODEL = "test-embedder"
DIM = 4
SPACE = EmbeddingSpace(MODEL, DIM)


def fact(
    content: str,
    *,
    agent: str = A,
    user: str | None = None,
    formed_at: datetime = T0,
    fact_id: str | None = None,
) -> Fact:
    """A user fact when ``user`` is given, an agent fact otherwise."""
    return Fact(
        id=FactId(fact_id or f"fact-{uuid.uuid4().hex}"),
        content=content,
        scope=Scope.USER if user is not None else Scope.AGENT,
        agent_id=AgentId(agent),
        user_id=UserId(user) if user is not None else None,
        formed_at=formed_at,
        created_at=formed_at,
        updated_at=formed_at,
        embedding_model=MODEL,
        embedding_dim=DIM,
    )


def axis(i: int) -> list[float]:
    vector = [0.0] * DIM
    vector[i % DIM] = 1.0
    return vector


@dataclass(frozen=True)
class MongoParts:
    """A MongoDB store's concerns as the adapter's own classes, for tests of its internals."""

    facts: MongoFacts
    ranking: MongoRanking
    sessions: MongoSessions
    buffers: MongoBuffers
    revisions: MongoRevisions
    close: Callable[[], Awaitable[None]]

    @property
    def ctx(self) -> MongoContext:
        return self.facts.ctx


def mongo_parts(database: Any, options: MongoStoreOptions | None = None) -> MongoParts:
    stores = mongo_stores(database, options)
    return MongoParts(
        cast(MongoFacts, stores.facts),
        cast(MongoRanking, stores.ranking),
        cast(MongoSessions, stores.sessions),
        cast(MongoBuffers, stores.buffers),
        cast(MongoRevisions, stores.revisions),
        stores.close,
    )


def mongomock_store(options: MongoStoreOptions | None = None) -> MongoParts:
    return mongo_parts(AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"], options)
