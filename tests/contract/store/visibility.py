"""The isolation property: in any world, searches return exactly what the viewer may see."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eden_memory.domain.ids import AgentId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores
from tests.contract.store.world import T0, Builder, StoreFactory, StoreFixtures

AGENTS = [AgentId("agent-a"), AgentId("agent-b"), AgentId("agent-c")]
USERS = [UserId("user-1"), UserId("user-2"), UserId("user-3")]
WORDS = ["walrus", "glacier", "harbor"]


@dataclass(frozen=True)
class FactSpec:
    agent: AgentId
    user: UserId | None  # None: an agent fact
    word: str
    retired: bool


fact_specs = st.builds(
    FactSpec,
    agent=st.sampled_from(AGENTS),
    user=st.none() | st.sampled_from(USERS),
    word=st.sampled_from(WORDS),
    retired=st.sampled_from([False, False, False, True]),
)


@st.composite
def viewers(draw: st.DrawFn) -> FactVisibility:
    user = draw(st.none() | st.sampled_from(USERS))
    scopes = draw(st.sets(st.sampled_from([Scope.AGENT, Scope.USER])))
    if user is None:
        scopes.discard(Scope.USER)
    # Agent-c owns facts but never looks: enough to check nothing crosses agents.
    return FactVisibility(draw(st.sampled_from(AGENTS[:2])), user, frozenset(scopes))


def build_world(build: Builder, specs: list[FactSpec]) -> list[Fact]:
    """Distinct contents ("<word> note<n>"), so no fact is an exact duplicate of another."""
    return [
        build.fact(
            f"{spec.word} note{n}",
            agent=spec.agent,
            user=spec.user,
            formed_at=T0 + timedelta(minutes=n),
            status=FactStatus.RETIRED if spec.retired else FactStatus.ACTIVE,
        )
        for n, spec in enumerate(specs)
    ]


def admitted(facts: list[Fact], viewer: FactVisibility) -> set[str]:
    return {f.id for f in facts if f.is_active and viewer.admits(f.agent_id, f.scope, f.user_id)}


class VisibilityContract(StoreFixtures):
    # Both suppressed checks are safe here: each example builds its own stores through the
    # factory, and the test keeps no state on ``self`` (every adapter subclass runs it).
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.differing_executors,
        ],
    )
    @given(
        specs=st.lists(fact_specs, min_size=1, max_size=30),
        viewer=viewers(),
        word=st.sampled_from(WORDS),
        limit=st.integers(min_value=1, max_value=40),
    )
    async def test_searches_return_exactly_what_the_viewer_may_see(
        self,
        make_stores: StoreFactory,
        build: Builder,
        specs: list[FactSpec],
        viewer: FactVisibility,
        word: str,
        limit: int,
    ) -> None:
        stores = await make_stores()
        facts = build_world(build, specs)
        await stores.facts.add_facts(facts, [build.hashed(f.content) for f in facts])
        visible = admitted(facts, viewer)
        matching: set[str] = {f.id for f in facts if f.id in visible and f.content.startswith(word)}
        await _check_semantic(stores, build, viewer, visible, limit)
        await _check_keyword(stores, viewer, word, matching, limit)
        await _check_recent(stores, viewer, visible, limit)


async def _check_semantic(
    stores: Stores, build: Builder, viewer: FactVisibility, visible: set[str], limit: int
) -> None:
    query = build.hashed("any query")
    some = {
        h.id for h in await stores.ranking.semantic_ranking(query, viewer, limit, space=build.space)
    }
    assert some <= visible
    assert len(some) == min(limit, len(visible))
    every = {
        h.id
        for h in await stores.ranking.semantic_ranking(
            query, viewer, len(visible) + 1, space=build.space
        )
    }
    assert every == visible


async def _check_keyword(
    stores: Stores, viewer: FactVisibility, word: str, matching: set[str], limit: int
) -> None:
    some = {h.id for h in await stores.ranking.keyword_ranking(word, viewer, limit)}
    assert some <= matching
    assert len(some) == min(limit, len(matching))
    every = {h.id for h in await stores.ranking.keyword_ranking(word, viewer, len(matching) + 1)}
    assert every == matching


async def _check_recent(
    stores: Stores, viewer: FactVisibility, visible: set[str], limit: int
) -> None:
    since = T0 - timedelta(days=1)
    some = await stores.fact_reads.recent_facts(viewer, since, limit)
    assert {f.id for f in some} <= visible
    assert len(some) == min(limit, len(visible))
    assert [f.formed_at for f in some] == sorted((f.formed_at for f in some), reverse=True)
    every = await stores.fact_reads.recent_facts(viewer, since, len(visible) + 1)
    assert {f.id for f in every} == visible
