"""Bad input is refused before anything reaches the server.

Ids must be strings (or ObjectIds, and 24-hex strings, in ObjectId mode). An operator
document such as ``{"$ne": ""}`` where an id belongs would otherwise widen a query to
other users' data; the store raises ``InvalidInputError`` before it sends a single byte.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from bson import ObjectId

from eden_memory.adapters.stores.mongo import IdMode, MongoStoreOptions
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import FactQuery
from tests.unit.adapters.mongo.builders import (
    T0,
    U1,
    A,
    MongoParts,
    axis,
    fact,
    mongo_parts,
    mongomock_store,
)


class Tripwire:
    """A database that fails the test as soon as anything tries to reach it."""

    client = None

    def __getitem__(self, name: str) -> Any:
        return self

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the server was reached: {name}")


def tripwire_store(mode: IdMode = IdMode.STRING) -> MongoParts:
    return mongo_parts(Tripwire(), MongoStoreOptions(id_mode=mode, ensure_indexes=False))


HOSTILE: list[Any] = [{"$ne": ""}, {"$gt": ""}, {"$in": ["agent-a"]}, 42, None, b"agent-a", ["a"]]
AGENT_ONLY = frozenset({Scope.AGENT})

Call = Callable[[MongoParts, Any], Awaitable[object]]
CALLS: dict[str, Call] = {
    "get_facts": lambda s, bad: s.facts.get_facts([bad]),
    "get_vectors": lambda s, bad: s.facts.get_vectors([bad]),
    "delete_facts": lambda s, bad: s.facts.delete_facts([bad]),
    "record_access": lambda s, bad: s.facts.record_access([bad], T0),
    "known_hashes(agent)": lambda s, bad: s.facts.known_hashes(bad, None),
    "known_hashes(user)": lambda s, bad: s.facts.known_hashes(A, bad),
    "list_facts": lambda s, bad: s.facts.list_facts(FactQuery(bad)),
    "list_facts(user)": lambda s, bad: s.facts.list_facts(FactQuery(A, user_id=bad)),
    "recent_facts": lambda s, bad: s.facts.recent_facts(
        FactVisibility(bad, None, AGENT_ONLY), T0, 5
    ),
    "keyword_ranking": lambda s, bad: s.ranking.keyword_ranking(
        "x", FactVisibility(bad, None, AGENT_ONLY), 5
    ),
    "get_reflection": lambda s, bad: s.buffers.get_reflection(bad),
    "delete_reflections": lambda s, bad: s.buffers.delete_reflections([bad]),
    "list_reflections": lambda s, bad: s.buffers.list_reflections(bad),
    "list_consolidated": lambda s, bad: s.buffers.list_consolidated(bad),
    "get_session(agent)": lambda s, bad: s.sessions.get_session(bad, SessionId("s")),
    "get_session(session)": lambda s, bad: s.sessions.get_session(A, bad),
    "end_session": lambda s, bad: s.sessions.end_session(A, bad, T0),
    "sessions_of_user": lambda s, bad: s.sessions.sessions_of_user(A, bad),
    "delete_session": lambda s, bad: s.sessions.delete_session(bad, SessionId("s")),
    "delete_messages_by_author": lambda s, bad: s.sessions.delete_messages_by_author(A, bad),
    "claim_messages": lambda s, bad: s.sessions.claim_messages(A, bad, "claim", T0, 60.0, 1, 10),
}


# Where None means "no user" it is valid input, not an attack.
OPTIONAL = {"known_hashes(user)", "list_facts(user)"}
CASES = [
    pytest.param(call, bad, id=f"{name}-{bad!r}")
    for name, call in CALLS.items()
    for bad in HOSTILE
    if not (bad is None and name in OPTIONAL)
]


@pytest.mark.parametrize(("call", "bad"), CASES)
async def test_hostile_ids_are_refused_before_the_server(call: Call, bad: Any) -> None:
    with pytest.raises(InvalidInputError):
        await call(tripwire_store(), bad)


async def test_an_object_id_is_refused_in_string_mode() -> None:
    with pytest.raises(InvalidInputError, match="must be a string"):
        await tripwire_store().sessions.get_session(ObjectId(), SessionId("s"))  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["agent-a", "65a1b2c3d4e5f6a7b8c9d0e", {"$ne": ""}, 7])
async def test_object_id_mode_refuses_what_is_no_object_id(bad: Any) -> None:
    with pytest.raises(InvalidInputError):
        await tripwire_store(IdMode.OBJECT_ID).sessions.get_session(bad, SessionId("s"))


async def test_object_id_mode_stores_host_ids_as_object_ids_and_reads_them_back() -> None:
    store = mongomock_store(MongoStoreOptions(id_mode=IdMode.OBJECT_ID))
    agent, user = "65a1b2c3d4e5f6a7b8c9d0e1", "65a1b2c3d4e5f6a7b8c9d0e2"
    mine = fact("Alice likes tea", agent=agent, user=user)
    await store.facts.add_facts([mine], [axis(0)])
    stored = await store.ctx.facts.find_one({"_id": mine.id})
    assert stored is not None
    assert stored["agent_id"] == ObjectId(agent)
    assert stored["user_id"] == ObjectId(user)
    assert await store.facts.get_facts([mine.id]) == [mine]
    viewer = FactVisibility(AgentId(agent), UserId(user), frozenset({Scope.USER}))
    assert [f.id for f in await store.facts.recent_facts(viewer, T0, 5)] == [mine.id]
    assert await store.facts.count_facts(ScopeKey.user(agent, user)) == 1


async def test_search_text_must_be_a_string() -> None:
    viewer = FactVisibility(A, U1, frozenset({Scope.USER}))
    with pytest.raises(InvalidInputError):
        await tripwire_store().ranking.keyword_ranking({"$ne": ""}, viewer, 5)  # type: ignore[arg-type]
