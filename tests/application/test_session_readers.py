"""A session's memory is read under the rule that records its turns (issue 40, item 1).

A host that reuses ``"s1"`` for every user had Bob's turn refused, but Bob's context for
``("nova", "s1", ["bob"])`` still held Alice's session memory, served from either cache
level too. Every call that names a conversation now applies ``domain/participants.py``
before it reads: on every store, through both cache levels.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import SessionUsersError
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.ports.stores import Stores
from tests.application.stores import StoreMaker
from tests.application.story import START, World, make_world

SECRET = "Alice is planning a surprise for her sister"
NO_USER_MEMORY = AgentMemoryConfig("nova", user_memory_enabled=False)


@pytest.fixture
async def world(make_store: StoreMaker) -> World:
    """Alice's session ``s1``: two messages pending and a session blob."""
    world = make_world(stores=await make_store())
    await _alices_session(world.memory, world)
    return world


async def _alices_session(memory: MemoryService, world: World, agent: Any = "nova") -> None:
    alice = memory.conversation(agent, "s1", ["alice"])
    await memory.record_messages(alice, world.messages("hello", "it is a secret"))
    key = ScopeKey.session("nova", "s1")
    await memory.admin.replace_consolidated(key, SECRET, expected_version=0)


async def test_another_users_context_on_a_reused_session_id_is_refused(world: World) -> None:
    memory = world.memory
    assert SECRET in (await memory.get_context(memory.conversation("nova", "s1", ["alice"]))).xml
    bob = memory.conversation("nova", "s1", ["bob"])
    with pytest.raises(SessionUsersError, match="own session id"):
        await memory.get_context(bob)
    with pytest.raises(SessionUsersError, match="own session id"):
        await memory.get_context(bob, refresh=True)


async def test_a_context_cached_for_alice_is_never_served_to_bob(world: World) -> None:
    """Without user memory, both conversations have the same scopes: the same cache key."""
    memory = world.memory
    alice = memory.conversation(NO_USER_MEMORY, "s1", ["alice"])
    await memory.get_context(alice)
    assert (await memory.get_context(alice)).cached_in == "process"
    with pytest.raises(SessionUsersError):
        await memory.get_context(memory.conversation(NO_USER_MEMORY, "s1", ["bob"]))


async def test_another_users_search_and_session_calls_are_refused(world: World) -> None:
    memory = world.memory
    bob = memory.conversation("nova", "s1", ["bob"])
    with pytest.raises(SessionUsersError):
        await memory.search_facts(bob, ["secret"])
    for call in (memory.end_session, memory.form_memories, memory.consolidate):
        with pytest.raises(SessionUsersError):
            await call(bob)
    state = await world.stores.sessions.get_session("nova", "s1")  # type: ignore[arg-type]
    assert state is not None
    assert (state.ended_at, state.pending_messages) == (None, 2)


async def test_a_group_member_alone_is_refused_while_the_groups_words_are_pending(
    make_store: StoreMaker,
) -> None:
    """The turn would file the group's pending words as Alice's: her context is refused
    too, and ending the session (formed as the group's) lets her in again."""
    world = make_world(stores=await make_store())
    memory = world.memory
    group = memory.conversation("nova", "g1", ["alice", "bob"])
    await memory.record_messages(group, world.messages("we plan a trip", "to Oslo"))
    alice = memory.conversation("nova", "g1", ["alice"])
    with pytest.raises(SessionUsersError, match="not formed yet"):
        await memory.get_context(alice)
    await memory.end_session(alice)  # formed with the session's stored users
    assert (await memory.get_context(alice)).xml is not None


async def test_who_the_write_lets_in_reads_as_before(world: World) -> None:
    memory = world.memory
    shown = await memory.get_context(memory.conversation("nova", "s1", ["alice"]))
    assert SECRET in shown.xml
    agent_only = await memory.get_context(memory.conversation("nova", "s1", []))
    assert SECRET in agent_only.xml  # the agent's own view; its turn is let in as well
    fresh = await memory.get_context(memory.conversation("nova", "s2", ["bob"]))
    assert SECRET not in fresh.xml
    await memory.record_messages(memory.conversation("nova", "s3", []), world.messages("hi"))
    learnt = memory.conversation("nova", "s3", ["carol"])  # an agent-only session learns
    await memory.get_context(learnt)
    await memory.search_facts(learnt, ["anything"])


@pytest.fixture(params=["sqlite", "mongomock"])
async def two_workers(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    """A second service over the same store, for the stored level of the cache."""
    pair: tuple[Stores, Stores]
    if request.param == "sqlite":
        pair = (await open_sqlite(tmp_path / "m.db"), await open_sqlite(tmp_path / "m.db"))
    else:
        database: Any = AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"]
        pair = (mongo_stores(database), mongo_stores(database))
    first, second = make_world(stores=pair[0]), make_world(stores=pair[1])
    await _alices_session(first.memory, first, NO_USER_MEMORY)
    alice = first.memory.conversation(NO_USER_MEMORY, "s1", ["alice"])
    assert SECRET in (await first.memory.get_context(alice)).xml
    await first.memory.wait_for_background()  # the copy for the other workers is saved
    yield second
    for stores in pair:
        await stores.close()


async def test_a_context_stored_for_alice_is_never_served_to_bob_by_another_worker(
    two_workers: World,
) -> None:
    memory = two_workers.memory
    assert two_workers.clock.now() == START
    alice = memory.conversation(NO_USER_MEMORY, "s1", ["alice"])
    assert (await memory.get_context(alice)).cached_in == "store"
    with pytest.raises(SessionUsersError):
        await memory.get_context(memory.conversation(NO_USER_MEMORY, "s1", ["bob"]))


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["read", "turn", "end"]),
        st.sampled_from(["s1", "s2"]),
        st.lists(st.sampled_from(["alice", "bob", "carol"]), max_size=2, unique=True),
    ),
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(STEPS)
def test_over_any_sequence_a_read_is_refused_exactly_when_its_turn_would_be(
    steps: list[tuple[str, str, list[str]]],
) -> None:
    """Turns, reads (cached or not) and session ends with changing users, in any order: each
    read is refused exactly when a turn of the same conversation right after it is."""
    asyncio.run(_sequence(steps))


async def _sequence(steps: list[tuple[str, str, list[str]]]) -> None:
    world = make_world()
    memory = world.memory
    for n, (action, session, users) in enumerate(steps):
        chat = memory.conversation(NO_USER_MEMORY, session, users)
        if action == "turn":
            await _refused(memory.record_messages(chat, world.messages(f"m{n}", author="x")))
        elif action == "end":
            await _refused(memory.end_session(chat))
        else:
            read = await _refused(memory.get_context(chat))
            assert read == await _refused(memory.record_messages(chat, []))


async def _refused(call: Any) -> bool:
    try:
        await call
    except SessionUsersError:
        return True
    return False
