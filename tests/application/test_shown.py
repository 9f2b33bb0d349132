"""What the surfaces are told: who holds memory, which record a shortened id names, and what
an empty context leaves out."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.ports.stores import Stores
from tests.application.stores import STORES, stores_of_kind

NOW = datetime(2026, 4, 1, 12, tzinfo=UTC)
OLD = NOW - timedelta(days=30)


@pytest.fixture(params=STORES)
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Stores]:
    made = await stores_of_kind(request.param, tmp_path)
    yield made
    await made.close()


def _memory(stores: Stores) -> MemoryService:
    return MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW))


def _fact(content: str, user: str | None = None, **more: object) -> FactInput:
    scope = "user" if user else "agent"
    return FactInput.model_validate(
        {"content": content, "agent_id": "nova", "user_id": user, "scope": scope}
        | {"formed_at": OLD}
        | more
    )


def _note(key: ScopeKey, note_id: str) -> Reflection:
    return Reflection.in_scope(
        key,
        id=ReflectionId(note_id),
        content="Prefers short answers",
        formed_at=NOW,
        created_at=NOW,
    )


async def test_users_with_facts_alone_are_listed_with_those_with_notes(stores: Stores) -> None:
    memory = _memory(stores)
    await memory.admin.add_facts([_fact(f"Fact of u{n}", f"u{n}") for n in (3, 1, 4)])
    await memory.admin.add_facts([_fact("Another agent's", "u0", agent_id="other")])
    await stores.buffers.add_reflections([_note(ScopeKey.user("nova", "u2"), "r1")])
    first = await memory.admin.users_with_memory("nova", limit=3)
    assert (first.names, first.next_after) == (["u1", "u2", "u3"], "u3")
    rest = await memory.admin.users_with_memory("nova", after=first.next_after, limit=3)
    assert (rest.names, rest.next_after) == (["u4"], None)
    sessions = await memory.admin.sessions_with_memory("nova")
    assert sessions.names == []


@settings(max_examples=40, deadline=None)
@given(
    with_facts=st.sets(st.sampled_from([f"u{n:02}" for n in range(12)])),
    with_notes=st.sets(st.sampled_from([f"u{n:02}" for n in range(12)])),
    limit=st.integers(1, 5),
)
def test_pages_of_users_cover_every_owner_once_in_order(
    with_facts: set[str], with_notes: set[str], limit: int
) -> None:
    async def walk() -> list[str]:
        stores = memory_stores()
        memory = _memory(stores)
        await memory.admin.add_facts([_fact(f"Fact of {u}", u) for u in sorted(with_facts)])
        notes = [_note(ScopeKey.user("nova", u), f"r-{u}") for u in with_notes]
        await stores.buffers.add_reflections(notes)
        seen: list[str] = []
        after: str | None = None
        for _ in range(20):
            page = await memory.admin.users_with_memory("nova", after=after, limit=limit)
            assert len(page.names) <= limit
            seen += page.names
            if page.next_after is None:
                return seen
            after = page.next_after
        raise AssertionError("the pages never ended")

    assert asyncio.run(walk()) == sorted(with_facts | with_notes)


@pytest.mark.parametrize("limit", [0, 1001, -1])
async def test_a_page_of_users_is_1_to_1000_long(limit: int) -> None:
    with pytest.raises(InvalidInputError, match="limit"):
        await _memory(memory_stores()).admin.users_with_memory("nova", limit=limit)


async def test_a_shortened_fact_id_names_the_one_fact_it_begins(stores: Stores) -> None:
    memory = _memory(stores)
    ids = ["abcd", "abcd-1", "abce-7", "abcf-1", "abcf-2"]
    await memory.admin.add_facts([_fact(f"Fact {i}", id=i) for i in ids])
    await memory.admin.add_facts([_fact("Theirs", id="abce-8", agent_id="other")])
    resolve = memory.admin.resolve_fact_id
    assert await resolve("nova", "abcd") == "abcd"  # a whole id, though it begins another
    assert await resolve("nova", "abcd-") == "abcd-1"
    assert await resolve("nova", "abce") == "abce-7"  # the other agent's is not a candidate
    with pytest.raises(InvalidInputError, match="ambiguous") as ambiguous:
        await resolve("nova", "abcf")
    assert "abcf-1, abcf-2" in str(ambiguous.value)
    with pytest.raises(NotFoundError, match="4 characters or more"):
        await resolve("nova", "abc")
    with pytest.raises(NotFoundError, match=r"^agent 'nova' has no fact 'abcz'$"):
        await resolve("nova", "abcz")


async def test_many_candidates_are_listed_ten_at_most(stores: Stores) -> None:
    memory = _memory(stores)
    await memory.admin.add_facts([_fact(f"Fact {n}", id=f"same-{n:02}") for n in range(12)])
    with pytest.raises(InvalidInputError) as ambiguous:
        await memory.admin.resolve_fact_id("nova", "same")
    said = str(ambiguous.value)
    assert "more than 10 fact ids" in said
    assert "same-09, ..." in said
    assert "same-10" not in said


async def test_a_shortened_reflection_id_names_the_one_reflection_it_begins(
    stores: Stores,
) -> None:
    memory = _memory(stores)
    key = ScopeKey.user("nova", "alice")
    await stores.buffers.add_reflections([_note(key, "note-11"), _note(key, "note-12")])
    await stores.buffers.add_reflections([_note(ScopeKey.agent("other"), "note-13")])
    assert await memory.admin.resolve_reflection_id("nova", "note-11") == "note-11"
    with pytest.raises(InvalidInputError, match="note-11, note-12"):
        await memory.admin.resolve_reflection_id("nova", "note-1")
    with pytest.raises(NotFoundError):
        await memory.admin.resolve_reflection_id("nova", "note-13")


async def test_an_empty_context_over_older_facts_says_how_many_search_finds(
    stores: Stores,
) -> None:
    memory = _memory(stores)
    await memory.admin.add_facts([_fact(f"Alice fact {n}", "alice") for n in range(3)])
    await memory.admin.add_facts([_fact("The office opens at 8"), _fact("Bob's", "bob")])
    alice = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    context = await memory.get_context(alice)
    assert context.xml == ""
    window = await memory.admin.fact_window(alice, context.facts)
    assert (window.shown, window.visible) == (0, 4)  # hers and the agent's, not Bob's
    assert window.note() is not None
    assert "4 older facts are found by search" in str(window.note())
    group = memory.conversation(AgentMemoryConfig("nova"), "g1", ["alice", "bob"])
    assert (await memory.admin.fact_window(group, 0)).visible == 1  # no user memory in groups


async def test_a_context_showing_every_visible_fact_has_nothing_to_add(stores: Stores) -> None:
    memory = _memory(stores)
    await memory.admin.add_facts([_fact("Alice is new here", "alice", formed_at=NOW)])
    alice = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    context = await memory.get_context(alice)
    assert context.facts == 1
    assert (await memory.admin.fact_window(alice, context.facts)).note() is None
