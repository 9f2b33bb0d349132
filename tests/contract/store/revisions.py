"""RevisionStore: counters that tell caches a scope changed; deleting a whole scope."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import timedelta

from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import MemoryStore
from tests.contract.store.world import S1, T0, U1, U2, A, Builder, StoreFixtures, messages, profile

USER_KEY = ScopeKey.user(A, U1)
SESSION_KEY = ScopeKey.session(A, S1)


async def moves(store: MemoryStore, key: ScopeKey, change: Awaitable[object]) -> bool:
    """Whether ``change`` moved the revision of ``key``."""
    before = (await store.revisions([key]))[key]
    await change
    return (await store.revisions([key]))[key] != before


def blob(key: ScopeKey, content: str, version: int) -> ConsolidatedMemory:
    return ConsolidatedMemory.empty(key, word_limit=200).evolve(content=content, version=version)


class RevisionContract(StoreFixtures):
    async def test_every_requested_key_has_a_revision(self, store: MemoryStore) -> None:
        keys = [USER_KEY, SESSION_KEY, ScopeKey.agent(A)]
        assert set(await store.revisions(keys)) == set(keys)

    async def test_fact_changes_move_the_revision(self, store: MemoryStore, build: Builder) -> None:
        fact = build.fact("Alice's birthday is May 4", user=U1)
        assert await moves(store, USER_KEY, store.add_facts([fact], [build.axis(0)]))
        edit = fact.revised("Alice's birthday is May 5", T0, space=build.space)
        assert await moves(store, USER_KEY, store.update_fact(edit, None, 1))
        retire = edit.retired(T0, "wrong", None)
        assert await moves(store, USER_KEY, store.update_fact(retire, None, 2))
        assert await moves(store, USER_KEY, store.delete_facts([fact.id]))

    async def test_access_tracking_does_not_move_the_revision(
        self, store: MemoryStore, build: Builder
    ) -> None:
        fact = build.fact("Alice's birthday is May 4", user=U1)
        await store.add_facts([fact], [build.axis(0)])
        seen = store.record_access([fact.id], T0 + timedelta(hours=1))
        assert not await moves(store, USER_KEY, seen)

    async def test_reflection_changes_move_the_revision(
        self, store: MemoryStore, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Prefers metric units")
        assert await moves(store, USER_KEY, store.add_reflections([reflection]))
        edited = reflection.evolve(content="Prefers metric units and 24h time")
        assert await moves(store, USER_KEY, store.update_reflection(edited))
        assert await moves(store, USER_KEY, store.delete_reflections([reflection.id]))

    async def test_blob_changes_move_the_revision(self, store: MemoryStore, build: Builder) -> None:
        reflection = build.reflection(USER_KEY, "Prefers metric units")
        await store.add_reflections([reflection])
        commit = store.commit_consolidation(blob(USER_KEY, "Metric", 1), 0, [reflection.id], T0)
        assert await moves(store, USER_KEY, commit)
        assert await moves(store, USER_KEY, store.replace_consolidated(blob(USER_KEY, "x", 2), 1))

    async def test_completing_a_claim_moves_the_revision_of_what_it_buffered(
        self, store: MemoryStore, build: Builder
    ) -> None:
        await store.record_messages(profile(), messages(1, 4), T0)
        claim = await store.claim_messages(A, S1, "worker", T0, 60.0, 1, 10)
        assert claim is not None
        formed = [build.reflection(SESSION_KEY, "Planning a trip to Oslo")]
        assert await moves(store, SESSION_KEY, store.complete_claim(claim, formed, T0))

    async def test_deleting_a_scope_removes_its_memory_and_moves_the_revision(
        self, store: MemoryStore, build: Builder
    ) -> None:
        mine = [build.fact("my first fact", user=U1), build.fact("my second fact", user=U1)]
        theirs = build.fact("their fact", user=U2)
        await store.add_facts([*mine, theirs], [build.axis(n) for n in range(3)])
        absorbed, buffered = (build.reflection(USER_KEY, text) for text in ("old", "new"))
        await store.add_reflections([absorbed, buffered])
        await store.commit_consolidation(blob(USER_KEY, "old", 1), 0, [absorbed.id], T0)

        before = (await store.revisions([USER_KEY]))[USER_KEY]
        assert await store.delete_scope(USER_KEY) == 5
        assert (await store.revisions([USER_KEY]))[USER_KEY] != before
        assert await store.get_facts([f.id for f in mine]) == []
        assert await store.get_facts([theirs.id]) == [theirs]
        assert await store.list_reflections(A, USER_KEY, include_absorbed=True) == []
        assert await store.get_consolidated([USER_KEY]) == {}
        assert await store.delete_scope(USER_KEY) == 0
