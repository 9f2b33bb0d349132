"""ReflectionStore and ConsolidatedStore: buffers, and compare-and-set consolidation."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import RevisionStore
from tests.contract.store.world import S1, T0, U1, A, B, Builder, StoreFixtures, WholeBuffers

USER_KEY = ScopeKey.user(A, U1)
SESSION_KEY = ScopeKey.session(A, S1)
MINUTE = timedelta(minutes=1)


def blob(key: ScopeKey, content: str, version: int) -> ConsolidatedMemory:
    return ConsolidatedMemory.empty(key, word_limit=300).evolve(
        content=content, version=version, last_consolidated_at=T0, updated_at=T0
    )


def ids(reflections: list[Reflection]) -> list[str]:
    return [r.id for r in reflections]


class ReflectionContract(StoreFixtures):
    async def test_a_reflection_is_stored_as_given(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Prefers short answers")
        await buffers.add_reflections([reflection])
        assert await buffers.get_reflection(reflection.id) == reflection
        assert await buffers.get_reflection(ReflectionId("refl-unknown")) is None

    async def test_adding_an_existing_id_changes_nothing(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Prefers short answers")
        await buffers.add_reflections([reflection])
        await buffers.add_reflections([reflection.evolve(content="Prefers long answers")])
        assert await buffers.get_reflection(reflection.id) == reflection
        assert len(await buffers.unabsorbed([USER_KEY])) == 1

    async def test_unabsorbed_returns_the_buffers_of_the_keys_oldest_first(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        late = build.reflection(USER_KEY, "late", T0 + 2 * MINUTE)
        early = build.reflection(SESSION_KEY, "early", T0)
        middle = build.reflection(USER_KEY, "middle", T0 + MINUTE)
        elsewhere = build.reflection(ScopeKey.agent(A), "agent level", T0)
        await buffers.add_reflections([late, early, middle, elsewhere])
        found = await buffers.unabsorbed([USER_KEY, SESSION_KEY])
        assert ids(found) == ids([early, middle, late])

    async def test_list_reflections_of_an_agent_optionally_of_one_key(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        first = build.reflection(USER_KEY, "first", T0)
        second = build.reflection(SESSION_KEY, "second", T0 + MINUTE)
        absorbed = build.reflection(USER_KEY, "absorbed", T0 + 2 * MINUTE)
        foreign = build.reflection(ScopeKey.agent(B), "other agent", T0)
        await buffers.add_reflections([first, second, absorbed, foreign])
        await buffers.commit_consolidation(blob(USER_KEY, "merged", 1), 0, [absorbed.id], T0)
        assert ids(await buffers.list_reflections(A)) == ids([first, second])
        assert ids(await buffers.list_reflections(A, USER_KEY)) == [first.id]
        everything = await buffers.list_reflections(A, include_absorbed=True)
        assert ids(everything) == ids([first, second, absorbed])

    async def test_purging_removes_and_rewrites_absorbed_reflections_too(
        self, buffers: WholeBuffers, revisions: RevisionStore, build: Builder
    ) -> None:
        key = ScopeKey.agent(A)
        theirs = build.reflection(key, "from the erased user", T0)
        shared = build.reflection(key, "from two users", T0 + MINUTE)
        pending = build.reflection(key, "still buffered", T0 + 2 * MINUTE)
        await buffers.add_reflections([theirs, shared, pending])
        await buffers.commit_consolidation(blob(key, "merged", 1), 0, [theirs.id, shared.id], T0)
        [_, stored, _] = await buffers.list_reflections(A, key, include_absorbed=True)
        cleaned = stored.evolve(source_user_ids=("user-2",))
        before = (await revisions.revisions([key]))[key]
        assert (
            await buffers.purge_reflections([theirs.id, ReflectionId("refl-unknown")], [cleaned])
            == 1
        )
        assert (await revisions.revisions([key]))[key] != before
        assert await buffers.get_reflection(theirs.id) is None
        assert await buffers.get_reflection(shared.id) == cleaned  # still absorbed, rewritten
        assert await buffers.get_reflection(pending.id) == pending
        ghost = build.reflection(key, "never stored", T0)
        await buffers.purge_reflections([], [ghost])
        assert await buffers.get_reflection(ghost.id) is None

    async def test_update_reflection_replaces_an_unabsorbed_one(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Likes jazz")
        await buffers.add_reflections([reflection])
        edited = reflection.revised("Likes jazz and blues", T0 + MINUTE)
        assert await buffers.update_reflection(edited, expected_version=1) == edited
        assert await buffers.get_reflection(reflection.id) == edited
        assert (edited.version, [h.content for h in edited.history]) == (2, ["Likes jazz"])

    async def test_an_update_from_a_stale_version_is_refused_and_changes_nothing(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Likes jazz")
        await buffers.add_reflections([reflection])
        first = reflection.revised("Likes jazz and blues", T0 + MINUTE)
        await buffers.update_reflection(first, expected_version=1)
        stale = reflection.revised("Likes rock", T0 + 2 * MINUTE)
        with pytest.raises(ConflictError):
            await buffers.update_reflection(stale, expected_version=1)
        assert await buffers.get_reflection(reflection.id) == first

    async def test_of_concurrent_updates_from_one_version_exactly_one_wins(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Likes jazz")
        await buffers.add_reflections([reflection])
        edits = [reflection.revised(f"Likes jazz, take {n}", T0 + MINUTE) for n in range(6)]
        results = await asyncio.gather(
            *(buffers.update_reflection(e, expected_version=1) for e in edits),
            return_exceptions=True,
        )
        won = [r for r in results if not isinstance(r, BaseException)]
        assert len(won) == 1
        assert all(isinstance(r, ConflictError) for r in results if r not in won)
        assert await buffers.get_reflection(reflection.id) == won[0]

    async def test_an_absorbed_reflection_cannot_be_edited(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "Likes jazz")
        await buffers.add_reflections([reflection])
        await buffers.commit_consolidation(blob(USER_KEY, "Likes jazz", 1), 0, [reflection.id], T0)
        with pytest.raises(ConflictError):
            await buffers.update_reflection(
                reflection.revised("Likes rock", T0), expected_version=1
            )

    async def test_delete_reflections_removes_only_unabsorbed_ones(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        keep = build.reflection(USER_KEY, "absorbed")
        drop = build.reflection(USER_KEY, "buffered")
        await buffers.add_reflections([keep, drop])
        await buffers.commit_consolidation(blob(USER_KEY, "absorbed", 1), 0, [keep.id], T0)
        assert await buffers.delete_reflections([keep.id, drop.id, ReflectionId("refl-x")]) == 1
        assert await buffers.get_reflection(drop.id) is None
        assert await buffers.get_reflection(keep.id) is not None


class ConsolidationContract(StoreFixtures):
    async def test_blobs_are_returned_only_for_keys_that_have_one(
        self, buffers: WholeBuffers
    ) -> None:
        memory = blob(USER_KEY, "Prefers short answers", 1)
        assert await buffers.replace_consolidated(memory, None)
        found = await buffers.get_consolidated([USER_KEY, SESSION_KEY])
        assert found == {USER_KEY: memory}

    async def test_a_commit_stores_the_blob_and_absorbs_exactly_the_given_reflections(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        taken = [build.reflection(USER_KEY, f"taken {n}", T0 + n * MINUTE) for n in range(2)]
        later = build.reflection(USER_KEY, "arrived during the consolidation", T0 + 5 * MINUTE)
        await buffers.add_reflections([*taken, later])
        memory = blob(USER_KEY, "taken 0 and taken 1", 1)
        now = T0 + timedelta(hours=1)
        assert await buffers.commit_consolidation(memory, 0, [r.id for r in taken], now)
        assert await buffers.get_consolidated([USER_KEY]) == {USER_KEY: memory}
        assert ids(await buffers.unabsorbed([USER_KEY])) == [later.id]
        for reflection in taken:
            stored = await buffers.get_reflection(reflection.id)
            assert stored is not None
            assert (stored.absorbed, stored.absorbed_into_version) == (True, 1)
            assert stored.absorbed_at == now

    async def test_a_commit_from_a_stale_version_changes_nothing(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        reflection = build.reflection(USER_KEY, "buffered")
        await buffers.add_reflections([reflection])
        current = blob(USER_KEY, "version one", 1)
        await buffers.replace_consolidated(current, None)
        stale = blob(USER_KEY, "from version zero", 1)
        assert not await buffers.commit_consolidation(stale, 0, [reflection.id], T0)
        assert await buffers.get_consolidated([USER_KEY]) == {USER_KEY: current}
        assert ids(await buffers.unabsorbed([USER_KEY])) == [reflection.id]

    async def test_of_concurrent_commits_from_one_version_exactly_one_wins(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        buffer = [build.reflection(USER_KEY, f"note {n}", T0 + n * MINUTE) for n in range(4)]
        await buffers.add_reflections(buffer)
        candidates = [blob(USER_KEY, f"merged by worker {w}", 1) for w in range(8)]
        results = await asyncio.gather(
            *(buffers.commit_consolidation(c, 0, [r.id for r in buffer], T0) for c in candidates)
        )
        assert results.count(True) == 1
        winner = candidates[results.index(True)]
        assert await buffers.get_consolidated([USER_KEY]) == {USER_KEY: winner}
        absorbed = await buffers.list_reflections(A, USER_KEY, include_absorbed=True)
        assert [(r.absorbed, r.absorbed_into_version) for r in absorbed] == [(True, 1)] * 4

    async def test_consecutive_commits_each_absorb_their_own_reflections(
        self, buffers: WholeBuffers, build: Builder
    ) -> None:
        first, second = build.reflection(USER_KEY, "first"), build.reflection(USER_KEY, "second")
        await buffers.add_reflections([first])
        assert await buffers.commit_consolidation(blob(USER_KEY, "v1", 1), 0, [first.id], T0)
        await buffers.add_reflections([second])
        assert await buffers.commit_consolidation(blob(USER_KEY, "v2", 2), 1, [second.id], T0)
        versions = [
            r.absorbed_into_version
            for r in await buffers.list_reflections(A, USER_KEY, include_absorbed=True)
        ]
        assert sorted(v for v in versions if v is not None) == [1, 2]

    async def test_list_consolidated_returns_one_agents_blobs(self, buffers: WholeBuffers) -> None:
        mine = [blob(USER_KEY, "user blob", 1), blob(SESSION_KEY, "session blob", 2)]
        for memory in [*mine, blob(ScopeKey.agent(B), "other agent", 1)]:
            await buffers.replace_consolidated(memory, None)
        found = await buffers.list_consolidated(A)
        assert sorted(found, key=lambda m: m.key) == sorted(mine, key=lambda m: m.key)

    async def test_replace_consolidated_with_and_without_expected_version(
        self, buffers: WholeBuffers
    ) -> None:
        v1, v2 = blob(USER_KEY, "written by a person", 1), blob(USER_KEY, "edited", 2)
        assert await buffers.replace_consolidated(v1, None)
        assert not await buffers.replace_consolidated(v2, expected_version=0)
        assert await buffers.get_consolidated([USER_KEY]) == {USER_KEY: v1}
        assert await buffers.replace_consolidated(v2, expected_version=1)
        assert await buffers.get_consolidated([USER_KEY]) == {USER_KEY: v2}
        v9 = blob(USER_KEY, "imported", 9)
        assert await buffers.replace_consolidated(v9, None)
        assert await buffers.get_consolidated([USER_KEY]) == {USER_KEY: v9}
