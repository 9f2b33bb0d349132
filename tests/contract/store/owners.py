"""Who holds memory, a page at a time (``fact_users``, ``note_owners``), and ids from their
first characters (``ids_starting_with``, ``reflection_ids_starting_with``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from eden_memory.domain.ids import AgentId, FactId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, FactStatus
from eden_memory.domain.scopes import Scope, ScopeKey
from tests.contract.store.world import T0, A, B, Builder, StoreFixtures, WholeBuffers, WholeFacts

# Stored in this order on purpose: none of the pages may come out in insertion order.
USERS = [UserId(u) for u in ("user-d", "user-a", "user-e", "user-c", "user-b")]


def _blob(key: ScopeKey) -> ConsolidatedMemory:
    return ConsolidatedMemory.empty(key, word_limit=300).evolve(
        content="a blob", version=1, last_consolidated_at=T0, updated_at=T0
    )


Listing = Callable[[str | None, int], Awaitable[Sequence[str]]]


async def _pages(read: Listing, limit: int) -> list[list[str]]:
    """Every page of a listing, each continued after the last owner of the one before."""
    pages: list[list[str]] = []
    after: str | None = None
    while True:
        page = await read(after, limit)
        if not page:
            return pages
        pages.append(list(page))
        after = page[-1]


class OwnerContract(StoreFixtures):
    async def test_users_with_facts_come_a_page_at_a_time_in_order(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        stored = [build.fact(f"fact {n} of {u}", user=u) for n in range(3) for u in USERS]
        stored.append(build.fact("an agent fact"))
        await facts.add_facts(stored, [build.axis(n) for n in range(len(stored))])

        async def read(after: str | None, limit: int) -> list[UserId]:
            return await facts.fact_users(A, UserId(after) if after else None, limit)

        assert await _pages(read, 2) == [["user-a", "user-b"], ["user-c", "user-d"], ["user-e"]]
        assert await facts.fact_users(A, None, 0) == []

    async def test_a_user_with_retired_facts_only_still_holds_memory(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        retired = build.fact("an old address", user=USERS[0], status=FactStatus.RETIRED)
        foreign = build.fact("another agent's user", agent=B, user=USERS[1])
        await facts.add_facts([retired, foreign], [build.axis(0), build.axis(1)])
        assert await facts.fact_users(A, None, 10) == [USERS[0]]
        assert await facts.fact_users(B, None, 10) == [USERS[1]]

    async def test_note_owners_are_the_users_or_sessions_with_a_blob_or_reflections(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        absorbed = build.reflection(ScopeKey.user(A, USERS[1]), "absorbed note")
        await buffers.add_reflections(
            [
                build.reflection(ScopeKey.user(A, USERS[0]), "buffered note"),
                build.reflection(ScopeKey.user(A, USERS[0]), "another note"),
                absorbed,
                build.reflection(ScopeKey.session(A, SessionId("s-2")), "session note"),
                build.reflection(ScopeKey.user(B, USERS[3]), "another agent's"),
                build.reflection(ScopeKey.agent(A), "the agent's own"),
            ]
        )
        blob = _blob(ScopeKey.user(A, USERS[1]))
        await buffers.commit_consolidation(blob, 0, [absorbed.id], T0)
        for key in (ScopeKey.user(A, USERS[2]), ScopeKey.session(A, SessionId("s-1"))):
            await buffers.replace_consolidated(_blob(key), None)

        async def users(after: str | None, limit: int) -> list[str]:
            return await buffers.note_owners(A, Scope.USER, after, limit)

        assert await _pages(users, 2) == [["user-a", "user-d"], ["user-e"]]
        assert await buffers.note_owners(A, Scope.SESSION, None, 10) == ["s-1", "s-2"]
        assert await buffers.note_owners(A, Scope.SESSION, "s-1", 10) == ["s-2"]
        assert await buffers.note_owners(B, Scope.USER, None, 10) == ["user-c"]

    async def test_fact_ids_are_found_by_their_first_characters(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        names = ["abc-1", "abc-2", "abd-1", "ab", "xabc"]
        stored = [build.fact(f"fact {n}").evolve(id=FactId(n)) for n in names]
        foreign = build.fact("another agent's", agent=B).evolve(id=FactId("abc-3"))
        retired = build.fact("retired", status=FactStatus.RETIRED).evolve(id=FactId("abc-0"))
        everything = [*stored, foreign, retired]
        await facts.add_facts(everything, [build.axis(n) for n in range(len(everything))])
        assert await facts.ids_starting_with(A, "abc", 10) == ["abc-0", "abc-1", "abc-2"]
        assert await facts.ids_starting_with(A, "ab", 2) == ["ab", "abc-0"]
        assert await facts.ids_starting_with(A, "abd-1", 10) == ["abd-1"]
        assert await facts.ids_starting_with(A, "abz", 10) == []
        assert await facts.ids_starting_with(B, "abc", 10) == ["abc-3"]

    async def test_reflection_ids_are_found_by_their_first_characters(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        key = ScopeKey.user(A, USERS[0])
        names = ["r-10", "r-11", "r-2", "q-10"]
        notes = [build.reflection(key, f"note {n}").evolve(id=ReflectionId(n)) for n in names]
        foreign = build.reflection(ScopeKey.agent(B), "theirs").evolve(id=ReflectionId("r-12"))
        await buffers.add_reflections([*notes, foreign])
        assert await buffers.reflection_ids_starting_with(A, "r-1", 10) == ["r-10", "r-11"]
        assert await buffers.reflection_ids_starting_with(A, "r-", 1) == ["r-10"]
        assert await buffers.reflection_ids_starting_with(A, "s", 10) == []
        assert await buffers.reflection_ids_starting_with(B, "r-1", 10) == ["r-12"]

    async def test_agents_with_facts_or_notes_come_a_page_at_a_time_in_order(
        self, facts: WholeFacts, buffers: WholeBuffers, build: Builder
    ) -> None:
        agents = [AgentId(a) for a in ("agent-c", "agent-a", "agent-d", "agent-b")]
        retired = build.fact("retired", agent=agents[0], status=FactStatus.RETIRED)
        own = build.fact("a user's", agent=agents[1], user=USERS[0])
        await facts.add_facts([retired, own], [build.axis(0), build.axis(1)])
        await buffers.add_reflections([build.reflection(ScopeKey.agent(agents[2]), "a note")])
        await buffers.replace_consolidated(_blob(ScopeKey.user(agents[3], USERS[1])), None)

        async def read(after: str | None, limit: int) -> list[AgentId]:
            return await facts.fact_agents(AgentId(after) if after else None, limit)

        assert await _pages(read, 1) == [["agent-a"], ["agent-c"]]
        assert await buffers.note_agents(None, 10) == ["agent-b", "agent-d"]
        assert await buffers.note_agents(AgentId("agent-b"), 10) == ["agent-d"]
        assert await facts.fact_agents(None, 0) == []
