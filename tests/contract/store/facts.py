"""FactStore: storing, exact-duplicate refusal, compare-and-set, listing, access counts."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import EmbeddingSpaceError
from eden_memory.domain.ids import FactId, SessionId
from eden_memory.domain.models import FactStatus
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import content_hash
from eden_memory.ports.stores import FactOrigin, Stores
from tests.contract.store.world import T0, U1, U2, A, B, Builder, StoreFixtures, WholeFacts, sees


class FactContract(StoreFixtures):
    async def test_an_empty_store_has_no_embedding_space(self, facts: WholeFacts) -> None:
        assert await facts.embedding_space() is None

    async def test_the_first_insert_sets_the_space(
        self, facts: WholeFacts, build: Builder, space: EmbeddingSpace
    ) -> None:
        await facts.add_facts([build.fact("Mars festival budget is 50k")], [build.axis(0)])
        assert await facts.embedding_space() == space

    async def test_vectors_of_another_model_are_refused(
        self, facts: WholeFacts, build: Builder, space: EmbeddingSpace
    ) -> None:
        await facts.add_facts([build.fact("first fact")], [build.axis(0)])
        other = EmbeddingSpace("another-model", space.dimension)
        with pytest.raises(EmbeddingSpaceError):
            await facts.add_facts([build.fact("second fact", space=other)], [build.axis(1)])
        assert await facts.count_facts(ScopeKey.agent(A)) == 1

    async def test_vectors_of_another_dimension_are_refused(
        self, facts: WholeFacts, build: Builder, space: EmbeddingSpace
    ) -> None:
        await facts.add_facts([build.fact("first fact")], [build.axis(0)])
        wider = EmbeddingSpace(space.model, space.dimension + 1)
        with pytest.raises(EmbeddingSpaceError):
            await facts.add_facts([build.fact("wide", space=wider)], [[1.0] * wider.dimension])
        with pytest.raises(EmbeddingSpaceError):  # the vector disagrees with its fact
            await facts.add_facts([build.fact("short")], [[1.0] * (space.dimension - 1)])
        assert await facts.count_facts(ScopeKey.agent(A)) == 1

    async def test_facts_come_back_as_stored_in_the_order_asked(
        self, stores: Stores, build: Builder
    ) -> None:
        facts = [build.fact(f"fact number {n}", user=U1) for n in range(3)]
        stored = await stores.facts.add_facts(facts, [build.axis(n) for n in range(3)])
        assert stored == facts
        wanted = [facts[2].id, FactId("fact-unknown"), facts[0].id]
        assert await stores.facts.get_facts(wanted) == [facts[2], facts[0]]

    async def test_origins_are_read_of_the_active_visible_facts_only(
        self, stores: Stores, build: Builder
    ) -> None:
        said = T0 + timedelta(days=2, microseconds=123_457)  # BSON keeps milliseconds alone
        mine = build.fact("Alice hikes", user=U1, formed_at=said).evolve(
            source_session_id=SessionId("session-9")
        )
        agents, bobs, other_agents = (
            build.fact("the office is in Lyon"),
            build.fact("Bob hikes", user=U2),
            build.fact("the office is in Oslo", agent=B),
        )
        retired = build.fact("Alice hiked", user=U1, status=FactStatus.RETIRED)
        added = [mine, agents, bobs, other_agents, retired]
        await stores.facts.add_facts(added, [build.axis(n) for n in range(len(added))])
        asked = [*(f.id for f in added), FactId("fact-unknown"), mine.id]
        origins = await stores.fact_reads.fact_origins(asked, sees(A, U1))
        assert origins == {
            mine.id: FactOrigin(said, SessionId("session-9")),
            agents.id: FactOrigin(T0, None),
        }
        assert await stores.fact_reads.fact_origins([], sees(A, U1)) == {}

    async def test_an_exact_duplicate_returns_the_stored_fact(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        first = build.fact("Alice's email is alice@example.com", user=U1)
        await facts.add_facts([first], [build.axis(0)])
        again = build.fact("alice's EMAIL is   alice@example.com.", user=U1)
        assert await facts.add_facts([again], [build.axis(1)]) == [first]
        assert await facts.get_facts([again.id]) == []
        assert await facts.count_facts(ScopeKey.user(A, U1)) == 1

    async def test_duplicates_within_one_batch_are_stored_once(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        one, two = (
            build.fact("The API lives at api.example.com"),
            build.fact("the api lives at api.example.com"),
        )
        stored = await facts.add_facts([one, two], [build.axis(0), build.axis(1)])
        assert stored == [one, one]
        assert await facts.count_facts(ScopeKey.agent(A)) == 1

    async def test_the_same_text_in_another_scope_key_is_no_duplicate(
        self, stores: Stores, build: Builder
    ) -> None:
        text = "The office is in Berlin"
        facts = [
            build.fact(text),
            build.fact(text, user=U1),
            build.fact(text, user=U2),
            build.fact(text, agent=B),
        ]
        assert await stores.facts.add_facts(facts, [build.axis(0)] * 4) == facts

    async def test_a_retired_fact_does_not_block_its_text(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        old = build.fact("John works at Acme", user=U1)
        await facts.add_facts([old], [build.axis(0)])
        await facts.update_fact(old.retired(T0, "contradicted", None), None, 1)
        new = build.fact("John works at Acme", user=U1)
        assert await facts.add_facts([new], [build.axis(0)]) == [new]

    async def test_concurrent_writers_never_create_a_duplicate(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        writes = [
            facts.add_facts([build.fact("Bob's phone is 555-0100", user=U1)], [build.axis(0)])
            for _ in range(10)
        ]
        results = await asyncio.gather(*writes)
        assert len({result[0].id for result in results}) == 1
        assert await facts.count_facts(ScopeKey.user(A, U1)) == 1

    async def test_vectors_come_back_for_known_ids(self, facts: WholeFacts, build: Builder) -> None:
        fact = build.fact("Paris is the capital of France")
        vector = build.at_cosine(0.6)
        await facts.add_facts([fact], [vector])
        found = await facts.get_vectors([fact.id, FactId("fact-unknown")])
        assert list(found) == [fact.id]
        assert found[fact.id] == pytest.approx(vector, abs=1e-5)

    async def test_known_hashes_cover_the_agent_and_the_given_user(
        self, stores: Stores, build: Builder
    ) -> None:
        agent_fact, mine, theirs = (
            build.fact("agent fact"),
            build.fact("my fact", user=U1),
            build.fact("their fact", user=U2),
        )
        others = [build.fact("other agent fact", agent=B), build.fact("retired fact")]
        facts = [agent_fact, mine, theirs, *others]
        await stores.facts.add_facts(facts, [build.axis(n) for n in range(len(facts))])
        await stores.facts.update_fact(others[1].retired(T0, "wrong", None), None, 1)
        expected = {(Scope.AGENT, agent_fact.content_hash), (Scope.USER, mine.content_hash)}
        assert await stores.facts.known_hashes(A, U1) == expected
        without_user = await stores.facts.known_hashes(A, None)
        assert (Scope.AGENT, agent_fact.content_hash) in without_user
        assert (Scope.AGENT, content_hash("retired fact")) not in without_user
        assert (Scope.AGENT, content_hash("other agent fact")) not in without_user

    async def test_known_hashes_among_given_ones_report_only_those_held(
        self, facts: WholeFacts, build: Builder
    ) -> None:
        held = [build.fact("agent fact"), build.fact("my fact", user=U1)]
        theirs = build.fact("their fact", user=U2)
        await facts.add_facts([*held, theirs], [build.axis(n) for n in range(3)])
        asked = {content_hash("my fact"), content_hash("their fact"), content_hash("new fact")}
        assert await facts.known_hashes(A, U1, asked) == {(Scope.USER, content_hash("my fact"))}
        agent_only = await facts.known_hashes(A, None, [content_hash("agent fact")])
        assert agent_only == {(Scope.AGENT, content_hash("agent fact"))}
        assert await facts.known_hashes(A, U1, set()) == set()
