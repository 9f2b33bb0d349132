"""FactStore changes: compare-and-set updates, listing, counting, access counts, deletion."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import ConflictError, EmbeddingSpaceError, NotFoundError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.ports.stores import FactQuery, ListingPosition, Stores
from tests.contract.store.world import T0, U1, U2, A, B, Builder, StoreFixtures, WholeFacts, ids


class FactChangeContract(StoreFixtures):
    async def test_update_fact_replaces_fact_and_vector_at_the_expected_version(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        fact = build.fact("Alice lives in Paris", user=U1)
        await facts.add_facts([fact], [build.axis(0)])
        moved = fact.revised(
            "Alice lives in Lyon", T0 + timedelta(days=1), "moved", space=build.space
        )
        assert await facts.update_fact(moved, build.axis(1), expected_version=1) == moved
        assert await facts.get_facts([fact.id]) == [moved]
        vectors = await facts.get_vectors([fact.id])
        assert vectors[fact.id] == pytest.approx(build.axis(1), abs=1e-5)

    async def test_update_fact_without_a_vector_keeps_the_vector(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        fact = build.fact("Alice lives in Paris", user=U1)
        await facts.add_facts([fact], [build.axis(2)])
        await facts.update_fact(fact.revised("Alice lives in Nice", T0, space=build.space), None, 1)
        vectors = await facts.get_vectors([fact.id])
        assert vectors[fact.id] == pytest.approx(build.axis(2), abs=1e-5)

    async def test_update_fact_refuses_a_vector_of_another_model(
        self, facts: WholeFacts, build: Builder, space: EmbeddingSpace
    ) -> None:
        fact = build.fact("Alice lives in Paris", user=U1)
        await facts.add_facts([fact], [build.axis(0)])
        other = EmbeddingSpace("another-model", space.dimension)
        with pytest.raises(EmbeddingSpaceError) as caught:
            await facts.update_fact(
                fact.revised("Alice lives in Lyon", T0, space=other), build.axis(1), 1
            )
        assert space.model in str(caught.value)
        assert "another-model" in str(caught.value)
        wider = EmbeddingSpace(space.model, space.dimension + 1)
        wide = fact.revised("Alice lives in Nice", T0, space=wider)
        with pytest.raises(EmbeddingSpaceError):
            await facts.update_fact(wide, [1.0] * wider.dimension, 1)
        short = fact.revised("Alice lives in Rome", T0, space=space)
        with pytest.raises(EmbeddingSpaceError):  # the vector disagrees with its fact
            await facts.update_fact(short, [1.0] * (space.dimension - 1), 1)
        assert await facts.get_facts([fact.id]) == [fact]
        vectors = await facts.get_vectors([fact.id])
        assert vectors[fact.id] == pytest.approx(build.axis(0), abs=1e-5)

    async def test_update_fact_without_a_vector_keeps_the_embedding_fields(
        self, facts: WholeFacts, build: Builder, space: EmbeddingSpace
    ) -> None:
        fact = build.fact("Alice lives in Paris", user=U1)
        await facts.add_facts([fact], [build.axis(0)])
        other = EmbeddingSpace("another-model", space.dimension)
        relabelled = fact.revised("Alice lives in Nice", T0, space=other)
        stored = await facts.update_fact(relabelled, None, 1)
        assert await facts.get_facts([fact.id]) == [stored]
        assert stored.content == "Alice lives in Nice"
        assert (stored.embedding_model, stored.embedding_dim) == (space.model, space.dimension)

    async def test_update_fact_refuses_a_moved_version(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        fact = build.fact("Alice lives in Paris", user=U1)
        await facts.add_facts([fact], [build.axis(0)])
        with pytest.raises(ConflictError):
            await facts.update_fact(
                fact.revised("Alice lives in Rome", T0, space=build.space), None, 2
            )
        assert await facts.get_facts([fact.id]) == [fact]

    async def test_update_fact_of_an_unknown_id_is_not_found(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        with pytest.raises(NotFoundError):
            await facts.update_fact(build.fact("never stored"), None, 1)

    async def test_of_two_updates_from_one_version_exactly_one_wins(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        fact = build.fact("The deadline is March 3", user=U1)
        await facts.add_facts([fact], [build.axis(0)])
        edits = [
            fact.revised(f"The deadline is March {day}", T0, space=build.space) for day in (4, 5)
        ]
        results = await asyncio.gather(
            *(facts.update_fact(edit, None, 1) for edit in edits), return_exceptions=True
        )
        assert sum(isinstance(r, ConflictError) for r in results) == 1
        winner = next(r for r in results if not isinstance(r, BaseException))
        assert await facts.get_facts([fact.id]) == [winner]

    async def test_list_facts_filters_and_pages_newest_first(
        self, stores: Stores, build: Builder
    ) -> None:
        day = timedelta(days=1)
        agent_old, agent_new = (
            build.fact("old", formed_at=T0),
            build.fact("new", formed_at=T0 + day),
        )
        mine, theirs = (
            build.fact("mine", user=U1, formed_at=T0 + 2 * day),
            build.fact("theirs", user=U2, formed_at=T0 + 3 * day),
        )
        retired = build.fact("gone", formed_at=T0 + 4 * day, status=FactStatus.RETIRED)
        facts = [agent_old, agent_new, mine, theirs, retired, build.fact("b", agent=B)]
        await stores.facts.add_facts(facts, [build.axis(n) for n in range(len(facts))])
        assert ids(await stores.fact_records.list_facts(FactQuery(A))) == ids(
            [theirs, mine, agent_new, agent_old]
        )
        assert ids(await stores.fact_records.list_facts(FactQuery(A, scope=Scope.AGENT))) == ids(
            [agent_new, agent_old]
        )
        assert ids(await stores.fact_records.list_facts(FactQuery(A, user_id=U1))) == [mine.id]
        assert ids(
            await stores.fact_records.list_facts(FactQuery(A, status=FactStatus.RETIRED))
        ) == [retired.id]
        assert len(await stores.fact_records.list_facts(FactQuery(A, status=None))) == 5
        page = await stores.fact_records.list_facts(FactQuery(A, limit=2, offset=1))
        assert ids(page) == ids([mine, agent_new])

    async def test_a_listing_continues_after_a_position_ties_broken_by_id(
        self, stores: Stores, build: Builder
    ) -> None:
        moments = [T0, T0 + timedelta(microseconds=1), T0 + timedelta(milliseconds=1)]
        facts = [
            build.fact(f"fact {n}", formed_at=moments[n % 3], user=U1 if n % 2 else None)
            for n in range(11)
        ]
        await stores.facts.add_facts(facts, [build.axis(n) for n in range(len(facts))])
        everything = await stores.fact_records.list_facts(FactQuery(A, limit=100))
        expected = sorted(facts, key=lambda f: (-f.formed_at.timestamp(), f.id))
        assert ids(everything) == ids(expected)
        paged: list[Fact] = []
        after: ListingPosition | None = None
        while page := await stores.fact_records.list_facts(FactQuery(A, limit=3, after=after)):
            paged.extend(page)
            after = ListingPosition.after(page[-1])
        assert ids(paged) == ids(everything)
        position = ListingPosition.after(everything[4])
        skipped = await stores.fact_records.list_facts(
            FactQuery(A, limit=2, offset=1, after=position)
        )
        assert ids(skipped) == ids(everything[6:8])
        mine = await stores.fact_records.list_facts(FactQuery(A, user_id=U1, after=position))
        assert ids(mine) == [f.id for f in everything[5:] if f.user_id == U1]

    async def test_count_facts_counts_active_facts_of_one_key(
        self, stores: Stores, build: Builder
    ) -> None:
        facts = [
            build.fact("one", user=U1),
            build.fact("two", user=U1),
            build.fact("three", user=U1, status=FactStatus.RETIRED),
            build.fact("other user", user=U2),
            build.fact("agent"),
        ]
        await stores.facts.add_facts(facts, [build.axis(n) for n in range(len(facts))])
        assert await stores.fact_reads.count_facts(ScopeKey.user(A, U1)) == 2
        assert await stores.fact_reads.count_facts(ScopeKey.agent(A)) == 1
        assert await stores.fact_reads.count_facts(ScopeKey.agent(B)) == 0

    async def test_record_access_counts_every_one_of_concurrent_calls(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        fact, other = build.fact("popular", user=U1), build.fact("quiet", user=U1)
        await facts.add_facts([fact, other], [build.axis(0), build.axis(1)])
        seen = T0 + timedelta(hours=1)
        await asyncio.gather(*(facts.record_access([fact.id], seen) for _ in range(20)))
        [counted, untouched] = await facts.get_facts([fact.id, other.id])
        assert counted.access_count == 20
        assert counted.last_accessed_at == seen
        assert untouched.access_count == 0

    async def test_delete_facts_reports_how_many_existed(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        keep, drop = build.fact("keep me"), build.fact("drop me")
        await facts.add_facts([keep, drop], [build.axis(0), build.axis(1)])
        assert await facts.delete_facts([drop.id, FactId("fact-unknown")]) == 1
        assert await facts.get_facts([keep.id, drop.id]) == [keep]
        assert await facts.get_vectors([drop.id]) == {}
