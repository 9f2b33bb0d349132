"""A store holding one of everything, and every read a host makes of it, for damage tests.

``fill`` writes facts of two partitions, unabsorbed and absorbed reflections of three keys,
their blobs, and a session with messages; ``outcomes`` runs each read the context, search,
management and export paths make, and returns what each raised (None: it answered).
``read_everything`` does so on a SQLite file, opening it first.
"""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Message, Reflection, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import FactQuery, PendingMessage, Stores
from tests.contract.store.world import whole_buffers, whole_facts, whole_sessions

T0 = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
A, U, S = AgentId("agent"), UserId("user"), SessionId("session")
SPACE = EmbeddingSpace("m", 8)
VIEWER = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))
KEYS = (ScopeKey.user(A, U), ScopeKey.agent(A), ScopeKey.session(A, S))
PROFILE = SessionProfile(A, S, (U,), True, True, "be brief", False)
FACTS = 60


def fact(n: int) -> Fact:
    """Odd facts are the user's, even ones the agent's."""
    return Fact(
        id=FactId(f"fact-{n}"),
        content=f"fact number {n} about green tea",
        scope=Scope.USER if n % 2 else Scope.AGENT,
        agent_id=A,
        user_id=U if n % 2 else None,
        formed_at=T0 + timedelta(minutes=n),
        created_at=T0,
        updated_at=T0,
        embedding_model=SPACE.model,
        embedding_dim=SPACE.dimension,
    )


async def fill(stores: Stores) -> None:
    vectors = np.random.default_rng(7).standard_normal((FACTS, SPACE.dimension)).tolist()
    await stores.facts.add_facts([fact(n) for n in range(FACTS)], vectors)
    for i, key in enumerate(KEYS):
        notes = [
            Reflection.in_scope(
                key,
                id=ReflectionId(f"r{i}-{j}"),
                content=f"likes tea {j}",
                formed_at=T0,
                created_at=T0,
            )
            for j in range(4)
        ]
        await stores.buffers.add_reflections(notes)
        blob = ConsolidatedMemory.empty(key, 300).evolve(content="A tea person.", version=1)
        await stores.buffers.commit_consolidation(blob, 0, [notes[0].id], T0)
    sent = [
        PendingMessage(
            Message(
                id=MessageId(f"m{n}"),
                role=Role.USER,
                text=f"hello {n}",
                sent_at=T0 + timedelta(seconds=n),
            ),
            2.0,
        )
        for n in range(12)
    ]
    await stores.sessions.record_messages(PROFILE, sent, T0)


async def build(path: Path) -> None:
    async with await open_sqlite(path) as stores:
        await fill(stores)


def copy_store(source: Path, target: Path) -> None:
    """The file (closed stores: the write-ahead log was checkpointed away)."""
    shutil.copy(source, target)


def _reads(stores: Stores) -> list[Callable[[], Awaitable[object]]]:
    ids = [FactId(f"fact-{n}") for n in range(FACTS)]
    facts, buffers, sessions = whole_facts(stores), whole_buffers(stores), whole_sessions(stores)
    return [
        lambda: facts.list_facts(FactQuery(A, status=None, limit=1000)),
        lambda: facts.list_facts(FactQuery(A, scope=Scope.USER, user_id=U)),
        lambda: facts.get_facts(ids),
        lambda: facts.get_vectors(ids),
        lambda: facts.known_hashes(A, U),
        lambda: facts.count_facts(KEYS[0]),
        lambda: facts.recent_facts(VIEWER, T0 - timedelta(days=1), 40),
        lambda: facts.embedding_space(),
        lambda: stores.ranking.semantic_ranking([1.0] * 8, VIEWER, 10, space=SPACE),
        lambda: stores.ranking.semantic_ranking([-1.0] * 8, VIEWER, 50, space=SPACE),
        lambda: stores.ranking.keyword_ranking("green tea", VIEWER, 10),
        lambda: buffers.unabsorbed(list(KEYS)),
        lambda: buffers.list_reflections(A, None, True),
        lambda: buffers.get_reflection(ReflectionId("r0-1")),
        lambda: buffers.get_consolidated(list(KEYS)),
        lambda: buffers.list_consolidated(A),
        lambda: sessions.get_session(A, S),
        lambda: sessions.sessions_of_user(A, U),
        lambda: sessions.cold_sessions(T0 + timedelta(hours=1), 1, 10),
        lambda: sessions.claim_messages(A, S, "claim", T0, 60, 1, 100),
        lambda: stores.revisions.revisions(list(KEYS)),
    ]


async def outcomes(stores: Stores) -> list[BaseException | None]:
    """What each read raised, in order (None: it answered)."""
    found: list[BaseException | None] = []
    for read in _reads(stores):
        try:
            await read()
            found.append(None)
        except Exception as exc:
            found.append(exc)
    return found


async def read_everything(path: Path) -> list[BaseException | None]:
    """What opening the SQLite store at ``path`` and each read raised, in order."""
    try:
        stores = await open_sqlite(path)
    except Exception as exc:
        return [exc]
    async with stores:
        return await outcomes(stores)
