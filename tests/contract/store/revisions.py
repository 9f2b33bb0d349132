"""RevisionStore: counters that tell caches a scope changed; deleting a whole scope."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import timedelta

from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import RevisionStore
from tests.contract.store.world import (
    S1,
    T0,
    U1,
    U2,
    A,
    Builder,
    StoreFixtures,
    WholeBuffers,
    WholeFacts,
    WholeSessions,
    messages,
    profile,
)

USER_KEY = ScopeKey.user(A, U1)
SESSION_KEY = ScopeKey.session(A, S1)


async def moves(revisions: RevisionStore, key: ScopeKey, change: Awaitable[object]) -> bool:
    """Whether ``change`` moved the revision of ``key``."""
    before = (await revisions.revisions([key]))[key]
    await change
    return (await revisions.revisions([key]))[key] != before


def blob(key: ScopeKey, content: str, version: int) -> ConsolidatedMemory:
    return ConsolidatedMemory.empty(key, word_limit=200).evolve(content=content, version=version)


class RevisionContract(StoreFixtures):
    async def test_scrubbing_keeps_every_record_and_search_works_after(
        self, facts: WholeFacts, revisions: RevisionStore, build: Builder
    ) -> None:
        kept = build.fact("Alice's birthday is May 4", user=U1)
        gone = build.fact("Alice's cat is called Tom", user=U1)
        await facts.add_facts([kept, gone], [build.axis(0), build.axis(1)])
        await facts.delete_facts([gone.id])
        await revisions.scrub()
        assert await facts.get_facts([kept.id, gone.id]) == [kept]
        assert set(await facts.get_vectors([kept.id])) == {kept.id}

    async def test_every_requested_key_has_a_revision(self, revisions: RevisionStore) -> None:
        keys = [USER_KEY, SESSION_KEY, ScopeKey.agent(A)]
        assert set(await revisions.revisions(keys)) == set(keys)

    async def test_fact_changes_move_the_revision(
        self, facts: WholeFacts, revisions: RevisionStore, build: Builder
    ) -> None:
        fact = build.fact("Alice's birthday is May 4", user=U1)
        assert await moves(revisions, USER_KEY, facts.add_facts([fact], [build.axis(0)]))
        edit = fact.revised("Alice's birthday is May 5", T0, space=build.space)
        assert await moves(revisions, USER_KEY, facts.update_fact(edit, None, 1))
        retire = edit.retired(T0, "wrong", None)
        assert await moves(revisions, USER_KEY, facts.update_fact(retire, None, 2))
        assert await moves(revisions, USER_KEY, facts.delete_facts([fact.id]))

    async def test_access_tracking_does_not_move_the_revision(
        self, facts: WholeFacts, revisions: RevisionStore, build: Builder
    ) -> None:
        fact = build.fact("Alice's birthday is May 4", user=U1)
        await facts.add_facts([fact], [build.axis(0)])
        seen = facts.record_access([fact.id], T0 + timedelta(hours=1))
        assert not await moves(revisions, USER_KEY, seen)

    async def test_reflection_changes_move_the_revision(
        self, buffers: WholeBuffers, revisions: RevisionStore, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Prefers metric units")
        assert await moves(revisions, USER_KEY, buffers.add_reflections([reflection]))
        edited = reflection.revised("Prefers metric units and 24h time", T0)
        assert await moves(revisions, USER_KEY, buffers.update_reflection(edited, 1))
        assert await moves(revisions, USER_KEY, buffers.delete_reflections([reflection.id]))

    async def test_blob_changes_move_the_revision(
        self, buffers: WholeBuffers, revisions: RevisionStore, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Prefers metric units")
        await buffers.add_reflections([reflection])
        commit = buffers.commit_consolidation(blob(USER_KEY, "Metric", 1), 0, [reflection.id], T0)
        assert await moves(revisions, USER_KEY, commit)
        assert await moves(
            revisions, USER_KEY, buffers.replace_consolidated(blob(USER_KEY, "x", 2), 1)
        )

    async def test_completing_a_claim_moves_the_revision_of_what_it_buffered(
        self, sessions: WholeSessions, revisions: RevisionStore, build: Builder
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        claim = await sessions.claim_messages(A, S1, "worker", T0, 60.0, 1, 10)
        assert claim is not None
        formed = [build.reflection(SESSION_KEY, "Planning a trip to Oslo")]
        assert await moves(revisions, SESSION_KEY, sessions.complete_claim(claim, formed, T0))

    async def test_deleting_a_scope_removes_its_memory_and_moves_the_revision(
        self, facts: WholeFacts, buffers: WholeBuffers, revisions: RevisionStore, build: Builder
    ) -> None:
        mine = [build.fact("my first fact", user=U1), build.fact("my second fact", user=U1)]
        theirs = build.fact("their fact", user=U2)
        await facts.add_facts([*mine, theirs], [build.axis(n) for n in range(3)])
        absorbed, buffered = (build.reflection(USER_KEY, text) for text in ("old", "new"))
        await buffers.add_reflections([absorbed, buffered])
        await buffers.commit_consolidation(blob(USER_KEY, "old", 1), 0, [absorbed.id], T0)

        before = (await revisions.revisions([USER_KEY]))[USER_KEY]
        assert await revisions.delete_scope(USER_KEY) == 5
        assert (await revisions.revisions([USER_KEY]))[USER_KEY] != before
        assert await facts.get_facts([f.id for f in mine]) == []
        assert await facts.get_facts([theirs.id]) == [theirs]
        assert await buffers.list_reflections(A, USER_KEY, include_absorbed=True) == []
        assert await buffers.get_consolidated([USER_KEY]) == {}
        assert await revisions.delete_scope(USER_KEY) == 0
