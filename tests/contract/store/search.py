"""Searching facts: cosine and keyword ranking, the visibility pre-filter, recency, re-embedding."""

from __future__ import annotations

from datetime import timedelta

import pytest

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import EmbeddingSpaceError
from eden_memory.domain.ids import AgentId
from eden_memory.domain.models import FactStatus
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import FactRanking, Stores
from tests.contract.store.world import (
    T0,
    U1,
    U2,
    A,
    B,
    Builder,
    StoreFixtures,
    WholeFacts,
    ids,
    sees,
)


def hit_ids(hits: list[Hit]) -> list[str]:
    return [h.id for h in hits]


class SearchContract(StoreFixtures):
    async def test_semantic_ranking_ranks_by_cosine_best_first(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder
    ) -> None:
        far, near, exact = build.fact("far"), build.fact("near"), build.fact("exact")
        vectors = [build.at_cosine(0.1), build.at_cosine(0.8), build.axis(0)]
        await facts.add_facts([far, near, exact], vectors)
        hits = await ranking.semantic_ranking(
            build.axis(0), sees(A, None), limit=10, space=build.space
        )
        assert hit_ids(hits) == ids([exact, near, far])
        assert [h.score for h in hits] == pytest.approx([1.0, 0.8, 0.1], abs=1e-4)
        assert hit_ids(
            await ranking.semantic_ranking(build.axis(0), sees(A, None), 2, space=build.space)
        ) == ids([exact, near])

    async def test_semantic_ranking_in_an_empty_store_finds_nothing(
        self, ranking: FactRanking, build: Builder
    ) -> None:
        assert (
            await ranking.semantic_ranking(build.axis(0), sees(A, U1), 10, space=build.space) == []
        )

    async def test_a_user_sees_agent_facts_and_only_their_own_user_facts(
        self, stores: Stores, build: Builder
    ) -> None:
        agent, mine, theirs = (
            build.fact("agent"),
            build.fact("mine", user=U1),
            build.fact("theirs", user=U2),
        )
        foreign = [build.fact("other agent"), build.fact("other agent's user fact", user=U1)]
        foreign = [f.evolve(agent_id=B) for f in foreign]
        facts = [agent, mine, theirs, *foreign]
        await stores.facts.add_facts(facts, [build.at_cosine(0.9)] * len(facts))

        async def found(visibility: FactVisibility) -> set[str]:
            return set(
                hit_ids(
                    await stores.ranking.semantic_ranking(
                        build.axis(0), visibility, 10, space=build.space
                    )
                )
            )

        assert await found(sees(A, U1)) == {agent.id, mine.id}
        assert await found(sees(A, None)) == {agent.id}
        assert await found(sees(A, U1, frozenset({Scope.AGENT}))) == {agent.id}
        assert await found(sees(A, U1, frozenset({Scope.USER}))) == {mine.id}
        assert await found(sees(AgentId("agent-c"), U1)) == set()

    async def test_limit_visible_results_come_back_past_closer_hidden_facts(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder
    ) -> None:
        hidden = [build.fact(f"someone else's fact {n}", user=U2) for n in range(200)]
        await facts.add_facts(hidden, [build.axis(0)] * len(hidden))
        mine = [build.fact(f"my fact {n}", user=U1) for n in range(7)]
        await facts.add_facts(mine, [build.at_cosine(0.5 + n / 20) for n in range(7)])
        hits = await ranking.semantic_ranking(
            build.axis(0), sees(A, U1), limit=5, space=build.space
        )
        assert hit_ids(hits) == ids(mine[::-1][:5])

    async def test_keyword_ranking_ranks_more_matching_terms_higher(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder
    ) -> None:
        best = build.fact("The rocket launch deadline and budget were approved", user=U1)
        some = build.fact("The rocket design review was approved by everyone", user=U1)
        none = build.fact("Bob owns a red bicycle and a green kayak", user=U1)
        await facts.add_facts([best, some, none], [build.axis(n) for n in range(3)])
        hits = await ranking.keyword_ranking("rocket launch deadline budget", sees(A, U1), 10)
        assert hit_ids(hits) == ids([best, some])
        assert hits[0].score > hits[1].score > 0
        assert len(await ranking.keyword_ranking("rocket", sees(A, U1), 1)) == 1

    @pytest.mark.parametrize(
        ("query", "wanted"),
        [
            ("email", 0),
            ("tea", 1),
            ("office", 2),
            ("What is my email?", 0),
            ("Where is the office?", 2),
            ("Alice's email", 0),
            ("Lyon", 2),
        ],
    )
    async def test_in_a_store_of_three_facts_a_distinctive_word_clears_the_floor(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder, query: str, wanted: int
    ) -> None:
        small = [
            build.fact("Alice's email is alice@example.com", user=U1),
            build.fact("Alice drinks green tea every morning", user=U1),
            build.fact("The office is in Lyon", user=U1),
        ]
        await facts.add_facts(small, [build.axis(n) for n in range(3)])
        hits = await ranking.keyword_ranking(query, sees(A, U1), 10)
        assert [h.id for h in hits][:1] == [small[wanted].id]
        assert hits[0].score >= ranking.text_score_threshold

    async def test_keyword_coverage_is_the_share_of_the_question_a_fact_holds(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder
    ) -> None:
        """What relevance reads of a keyword hit (``domain.relevance``): 1 for a fact holding
        every word of the question, far less when it holds one of three, and less when the
        question names someone the store holds nowhere."""
        small = [
            build.fact("The poster designer is Carla Ruiz", user=U1),
            build.fact("Bob's phone number is 555 0100", user=U1),
            build.fact("The Mars festival takes place in Lyon", user=U1),
            build.fact("The festival opens with a parade", user=U1),
        ]
        await facts.add_facts(small, [build.axis(n) for n in range(4)])

        async def coverage(query: str) -> float | None:
            hits = await ranking.keyword_ranking(query, sees(A, U1), 10)
            assert hits, query
            assert hits[0].id == small[0].id
            return hits[0].coverage

        whole = await coverage("poster designer Carla Ruiz")
        assert whole is not None
        assert whole == pytest.approx(1.0, abs=0.15)
        third = await coverage("Carla dentist appointment")  # two words the store lacks
        named = await coverage("poster designer Carla and Zoe")  # a name the store lacks
        assert third is not None
        assert named is not None
        assert third < 0.5
        assert named < whole - 0.1

    async def test_keyword_ranking_matches_word_forms_and_leaves_out_stop_words(
        self, stores: Stores, build: Builder
    ) -> None:
        """Every stores stems alike (Porter) and drops the same stop words from a query."""
        met = build.fact("Alice attended two support group meetings", user=U1)
        piano = build.fact("Bob plays the piano in a band", user=U1)
        who = build.fact("The Who is her favourite band", user=U1)
        hidden = build.fact("Carol attends a support group", user=U2)
        facts = [met, piano, who, hidden]
        await stores.facts.add_facts(facts, [build.axis(n) for n in range(len(facts))])

        async def found(text: str) -> list[str]:
            hits = await stores.ranking.keyword_ranking(text, sees(A, U1), 10)
            assert all(hit.score > 0 for hit in hits)
            return hit_ids(hits)

        assert await found("attending groups") == [met.id]
        assert await found("meeting") == [met.id]
        # "when", "did", "to", "the" are not looked for: "the" would find the other two.
        assert await found("When did Alice go to the meetings?") == [met.id]
        assert set(await found("the band")) == {piano.id, who.id}
        # A query of stop words only looks for all of them.
        assert await found("who is it") == [who.id]

    async def test_keyword_ranking_returns_only_visible_facts(
        self, stores: Stores, build: Builder
    ) -> None:
        agent, mine = build.fact("kayak trip planned"), build.fact("kayak is blue", user=U1)
        hidden = [
            build.fact("kayak rental booked", user=U2),
            build.fact("kayak stored in garage").evolve(agent_id=B),
        ]
        facts = [agent, mine, *hidden]
        await stores.facts.add_facts(facts, [build.axis(n) for n in range(len(facts))])
        hits = await stores.ranking.keyword_ranking("kayak", sees(A, U1), 10)
        assert set(hit_ids(hits)) == {agent.id, mine.id}
        assert hit_ids(await stores.ranking.keyword_ranking("kayak", sees(A, None), 10)) == [
            agent.id
        ]

    async def test_retired_facts_are_never_found(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder
    ) -> None:
        live, dead = (
            build.fact("John works at Acme", user=U1),
            build.fact("John works at Initech", user=U1),
        )
        stored_retired = build.fact("John works at Hooli", user=U1, status=FactStatus.RETIRED)
        await facts.add_facts([live, dead, stored_retired], [build.axis(0)] * 3)
        await facts.update_fact(dead.retired(T0, "contradicted", live.id), None, 1)
        visible = sees(A, U1)
        assert hit_ids(
            await ranking.semantic_ranking(build.axis(0), visible, 10, space=build.space)
        ) == [live.id]
        assert hit_ids(await ranking.keyword_ranking("John works", visible, 10)) == [live.id]
        assert ids(await facts.recent_facts(visible, T0 - timedelta(days=1), 10)) == [live.id]

    async def test_recent_facts_are_newest_first_since_an_instant(
        self, stores: Stores, build: Builder
    ) -> None:
        ages = [timedelta(days=10), timedelta(days=7), timedelta(days=1), timedelta(0)]
        facts = [build.fact(f"fact of {age}", user=U1, formed_at=T0 - age) for age in ages]
        extra = [
            build.fact("another user's", user=U2),
            build.fact("other agent").evolve(agent_id=B),
        ]
        await stores.facts.add_facts([*facts, *extra], [build.axis(n) for n in range(6)])
        since = T0 - timedelta(days=7)  # inclusive
        assert ids(await stores.fact_reads.recent_facts(sees(A, U1), since, 10)) == ids(
            facts[:0:-1]
        )
        assert ids(await stores.fact_reads.recent_facts(sees(A, U1), since, 2)) == ids(facts[:1:-1])

    async def test_reembedding_moves_the_store_to_a_new_space(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder, space: EmbeddingSpace
    ) -> None:
        moved, unmoved = build.fact("moved fact"), build.fact("unmoved fact")
        await facts.add_facts([moved, unmoved], [build.axis(0), build.axis(0)])
        new_space = EmbeddingSpace("contract-embedder-v2", space.dimension)
        await facts.reembed_facts(new_space, {moved.id: build.axis(1)})
        assert await facts.embedding_space() == new_space
        hits = await ranking.semantic_ranking(build.axis(1), sees(A, None), 10, space=new_space)
        assert hit_ids(hits) == [moved.id]
        with pytest.raises(EmbeddingSpaceError):
            await facts.add_facts([build.fact("old space")], [build.axis(2)])
        with pytest.raises(EmbeddingSpaceError):  # nor is the old space searched any more
            await ranking.semantic_ranking(build.axis(0), sees(A, None), 10, space=space)
        newcomer = build.fact("new space", space=new_space)
        assert await facts.add_facts([newcomer], [build.axis(1)]) == [newcomer]
        await facts.reembed_facts(new_space, {unmoved.id: build.axis(1)})
        hits = await ranking.semantic_ranking(build.axis(1), sees(A, None), 10, space=new_space)
        assert set(hit_ids(hits)) == {moved.id, unmoved.id, newcomer.id}

    async def test_a_query_of_another_model_is_refused_even_of_the_same_dimension(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder, space: EmbeddingSpace
    ) -> None:
        other = EmbeddingSpace("another-model", space.dimension)
        visible = sees(A, None)
        # No space yet: a query of any space ranks nothing.
        assert await ranking.semantic_ranking(build.axis(0), visible, 10, space=other) == []
        await facts.add_facts([build.fact("Mars festival budget")], [build.axis(0)])
        with pytest.raises(EmbeddingSpaceError) as caught:
            await ranking.semantic_ranking(build.axis(0), visible, 10, space=other)
        assert space.model in str(caught.value)
        assert "another-model" in str(caught.value)
        wider = EmbeddingSpace(space.model, space.dimension + 1)
        with pytest.raises(EmbeddingSpaceError):
            await ranking.semantic_ranking([1.0] * wider.dimension, visible, 10, space=wider)
        with pytest.raises(EmbeddingSpaceError):  # the vector disagrees with its space
            await ranking.semantic_ranking([1.0] * (space.dimension - 1), visible, 10, space=space)

    async def test_a_fact_not_yet_reembedded_moves_when_updated_with_a_new_vector(
        self, facts: WholeFacts, ranking: FactRanking, build: Builder, space: EmbeddingSpace
    ) -> None:
        moved, unmoved = build.fact("moved fact"), build.fact("unmoved fact")
        await facts.add_facts([moved, unmoved], [build.axis(0), build.axis(0)])
        new_space = EmbeddingSpace("contract-embedder-v2", space.dimension)
        await facts.reembed_facts(new_space, {moved.id: build.axis(1)})
        stale = unmoved.revised("unmoved fact, edited", T0, space=space)
        with pytest.raises(EmbeddingSpaceError):  # a vector of the old space is refused
            await facts.update_fact(stale, build.axis(2), 1)
        edited = unmoved.revised("unmoved fact, edited", T0, space=new_space)
        assert await facts.update_fact(edited, build.axis(2), 1) == edited
        hits = await ranking.semantic_ranking(build.axis(2), sees(A, None), 10, space=new_space)
        assert hit_ids(hits)[0] == unmoved.id
