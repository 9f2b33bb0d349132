"""FactStore.add_superseding: a new fact retires what it supersedes, in the same write, and the
freshness fields (supersede key, valid-until) are kept as given."""

from __future__ import annotations

from datetime import timedelta

import pytest

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import EmbeddingSpaceError, InvalidInputError, NotFoundError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import FactQuery, Stores, Superseding
from tests.contract.store.world import (
    T0,
    U1,
    A,
    Builder,
    StoreFixtures,
    WholeFacts,
    sees,
    whole_facts,
)

NOW = T0 + timedelta(days=400)
CITY = "user.home_city"


def keyed(build: Builder, content: str, days: int, key: str | None = CITY) -> Fact:
    fact = build.fact(content, user=U1, formed_at=T0 + timedelta(days=days))
    return fact.evolve(supersede_key=key)


async def statuses(facts: WholeFacts, *items: Fact) -> list[tuple[FactStatus, FactId | None]]:
    stored = {f.id: f for f in await facts.get_facts([f.id for f in items])}
    return [(stored[f.id].status, stored[f.id].superseded_by) for f in items]


async def found(stores: Stores, build: Builder, axis: int) -> list[str]:
    visible = sees(A, U1)
    hits = await stores.ranking.semantic_ranking(build.axis(axis), visible, 10, space=build.space)
    return [h.id for h in hits]


class SupersessionContract(StoreFixtures):
    async def test_freshness_fields_are_kept_as_given(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        fact = keyed(build, "Alice lives in Boston", 0).evolve(valid_until=NOW)
        assert await facts.add_facts([fact], [build.axis(0)]) == [fact]
        assert await facts.get_facts([fact.id]) == [fact]
        listed = await facts.list_facts(FactQuery(A, user_id=U1))
        assert [(f.supersede_key, f.valid_until) for f in listed] == [(CITY, NOW)]

    async def test_a_newer_fact_of_a_key_retires_the_older_one_out_of_search(
        self, stores: Stores, build: Builder
    ) -> None:
        boston, denver = keyed(build, "Alice lives in Boston", 0), keyed(build, "Denver", 90)
        await stores.facts.add_facts([boston], [build.axis(0)])
        assert await found(stores, build, 0) == [boston.id]
        revisions = await stores.revisions.revisions([ScopeKey.user(A, U1)])
        [done] = await stores.facts.add_superseding([Superseding(denver, build.axis(1))], NOW)
        assert (done.fact, done.retired_ids) == (denver, (boston.id,))
        assert await statuses(whole_facts(stores), boston, denver) == [
            (FactStatus.RETIRED, denver.id),
            (FactStatus.ACTIVE, None),
        ]
        [retired] = await stores.facts.get_facts([boston.id])
        assert (retired.retired_at, retired.content) == (NOW, boston.content)
        assert await found(stores, build, 0) == [denver.id]
        assert await stores.ranking.keyword_ranking("Boston", sees(A, U1), 10) == []
        assert await stores.revisions.revisions([ScopeKey.user(A, U1)]) != revisions

    async def test_a_fact_older_than_the_active_one_of_its_key_is_stored_retired(
        self, stores: Stores, build: Builder
    ) -> None:
        boston, denver = keyed(build, "Alice lives in Boston", 0), keyed(build, "Denver", 90)
        await stores.facts.add_facts([denver], [build.axis(1)])
        [done] = await stores.facts.add_superseding([Superseding(boston, build.axis(0))], NOW)
        assert (done.fact.status, done.retired) == (FactStatus.RETIRED, ())
        assert await statuses(whole_facts(stores), boston, denver) == [
            (FactStatus.RETIRED, denver.id),
            (FactStatus.ACTIVE, None),
        ]
        assert await found(stores, build, 0) == [denver.id]

    async def test_items_of_one_call_supersede_each_other_in_order(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        chain = [keyed(build, f"Alice lives in city {n}", n) for n in range(3)]
        items = [Superseding(f, build.axis(n)) for n, f in enumerate(chain)]
        done = await facts.add_superseding(items, NOW)
        assert [d.retired_ids for d in done] == [(), (chain[0].id,), (chain[1].id,)]
        assert [s for s, _ in await statuses(facts, *chain)] == [
            FactStatus.RETIRED,
            FactStatus.RETIRED,
            FactStatus.ACTIVE,
        ]

    async def test_a_named_fact_is_retired_and_other_facts_are_untouched(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        named, other = keyed(build, "Alice is 30", 0, None), keyed(build, "Alice is kind", 0, None)
        await facts.add_facts([named, other], [build.axis(0), build.axis(2)])
        new = keyed(build, "Alice is 31", 10, None)
        [done] = await facts.add_superseding([Superseding(new, build.axis(1), named.id)], NOW)
        assert done.retired_ids == (named.id,)
        assert await statuses(facts, named, other, new) == [
            (FactStatus.RETIRED, new.id),
            (FactStatus.ACTIVE, None),
            (FactStatus.ACTIVE, None),
        ]

    async def test_a_bad_named_fact_is_refused_and_nothing_of_the_call_is_written(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        agent_fact = build.fact("The office is in Lyon")
        await facts.add_facts([agent_fact], [build.axis(0)])
        first = keyed(build, "Alice lives in Paris", 0)
        for named, error in ((FactId("fact-unknown"), NotFoundError), (agent_fact.id, None)):
            second = keyed(build, "Alice is 31", 1, None)
            items = [Superseding(first, build.axis(1)), Superseding(second, build.axis(2), named)]
            with pytest.raises(error or InvalidInputError, match=str(named)):
                await facts.add_superseding(items, NOW)
            assert await facts.get_facts([first.id, second.id]) == []

    async def test_a_retry_stores_nothing_twice_and_finishes_the_retirements(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        boston, denver = keyed(build, "Alice lives in Boston", 0), keyed(build, "Denver", 90)
        await facts.add_facts([boston, denver], [build.axis(0), build.axis(1)])  # both active
        [done] = await facts.add_superseding([Superseding(denver, build.axis(1))], NOW)
        assert (done.fact.id, done.retired_ids) == (denver.id, (boston.id,))
        [again] = await facts.add_superseding([Superseding(denver, build.axis(1))], NOW)
        assert (again.fact.id, again.retired) == (denver.id, ())
        assert await facts.count_facts(ScopeKey.user(A, U1)) == 1

    async def test_an_exact_duplicate_of_an_active_fact_changes_nothing(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        boston, denver = keyed(build, "Alice lives in Boston", 0), keyed(build, "Denver", 90, None)
        await facts.add_facts([boston, denver], [build.axis(0), build.axis(1)])
        twin = keyed(build, "Denver", 95)
        [done] = await facts.add_superseding([Superseding(twin, build.axis(1))], NOW)
        assert (done.fact, done.retired) == (denver, ())
        assert await statuses(facts, boston) == [(FactStatus.ACTIVE, None)]
        assert await facts.get_facts([twin.id]) == []

    async def test_vectors_of_another_space_are_refused(
        self, facts: WholeFacts, build: Builder, space: EmbeddingSpace
    ) -> None:
        await facts.add_facts([keyed(build, "Alice lives in Boston", 0)], [build.axis(0)])
        other = EmbeddingSpace("another-model", space.dimension)
        alien = build.fact("Denver", user=U1, space=other)
        with pytest.raises(EmbeddingSpaceError):
            await facts.add_superseding([Superseding(alien, build.axis(1))], NOW)
        short = keyed(build, "Denver", 90)
        with pytest.raises(EmbeddingSpaceError):
            await facts.add_superseding([Superseding(short, [1.0])], NOW)
        assert await facts.count_facts(ScopeKey.user(A, U1)) == 1
