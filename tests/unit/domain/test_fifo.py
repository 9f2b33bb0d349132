from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.fifo import fifo_since, newest_first, select_fifo
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.domain.settings import FactSettings
from tests.unit.domain.builders import PROPERTY, T0, make_fact

DEFAULT = FactSettings()
ALICE = FactVisibility(AgentId("a1"), UserId("u1"), frozenset({Scope.USER, Scope.AGENT}))


def test_the_fifo_reaches_back_seven_days() -> None:
    assert fifo_since(T0, DEFAULT) == T0 - timedelta(days=7)


def test_the_fifo_shows_recent_visible_active_facts_newest_first() -> None:
    old = make_fact("old", formed_at=T0 - timedelta(days=7, seconds=1), agent_id="a1", user_id="u1")
    edge = make_fact("edge", formed_at=T0 - timedelta(days=7), agent_id="a1", user_id="u1")
    new = make_fact("new", formed_at=T0 - timedelta(minutes=1), agent_id="a1", user_id="u1")
    agent = make_fact("agent", scope=Scope.AGENT, formed_at=T0 - timedelta(hours=1), agent_id="a1")
    bob = make_fact("bob", formed_at=T0, agent_id="a1", user_id="u2")
    other = make_fact("other", scope=Scope.AGENT, formed_at=T0, agent_id="a2")
    retired = new.evolve(id="retired").retired(T0, "contradicted", FactId("new"))
    chosen = select_fifo([old, edge, bob, other, agent, retired, new], ALICE, T0, DEFAULT)
    assert [f.id for f in chosen] == ["new", "agent", "edge"]


def test_the_fifo_keeps_only_the_newest_within_its_limit() -> None:
    facts = [
        make_fact(f"f{n}", formed_at=T0 - timedelta(minutes=n), agent_id="a1", user_id="u1")
        for n in range(50)
    ]
    chosen = select_fifo(facts, ALICE, T0, DEFAULT)
    assert [f.id for f in chosen] == [f"f{n}" for n in range(40)]


def test_a_disabled_or_empty_fifo_shows_nothing() -> None:
    facts = [make_fact("f1", agent_id="a1", user_id="u1")]
    assert select_fifo(facts, ALICE, T0, FactSettings(fifo_enabled=False)) == []
    assert select_fifo(facts, ALICE, T0, FactSettings(fifo_limit=0)) == []


def test_equal_times_are_ordered_by_id() -> None:
    facts = [make_fact(i, agent_id="a1", user_id="u1") for i in ("b", "c", "a")]
    assert [f.id for f in sorted(facts, key=newest_first)] == ["a", "b", "c"]


@st.composite
def fact_pools(draw: st.DrawFn) -> list[Fact]:
    facts: list[Fact] = []
    for n in range(draw(st.integers(0, 25))):
        scope = draw(st.sampled_from([Scope.USER, Scope.AGENT]))
        fact = make_fact(
            f"f{n}",
            scope=scope,
            agent_id=draw(st.sampled_from(["a1", "a2"])),
            user_id=draw(st.sampled_from(["u1", "u2"])),
            formed_at=T0 - timedelta(seconds=draw(st.integers(-3600, 10 * 86400))),
        )
        if draw(st.booleans()) and draw(st.booleans()):
            fact = fact.retired(T0, "contradicted", None)
        facts.append(fact)
    return facts


VIEWERS = st.sampled_from(
    [
        ALICE,
        FactVisibility(AgentId("a1"), None, frozenset({Scope.AGENT})),
        FactVisibility(AgentId("a2"), UserId("u2"), frozenset({Scope.USER})),
        FactVisibility(AgentId("a1"), None, frozenset()),
    ]
)


@PROPERTY
@given(fact_pools(), VIEWERS, st.integers(0, 15), st.floats(0.5, 300))
def test_the_fifo_is_within_limit_and_age_newest_first_visible_and_active(
    facts: list[Fact], viewer: FactVisibility, limit: int, hours: float
) -> None:
    settings = FactSettings(fifo_limit=limit, fifo_max_age_hours=hours)
    chosen = select_fifo(facts, viewer, T0, settings)
    since = T0 - timedelta(hours=hours)
    assert len(chosen) <= limit
    assert all(f.formed_at >= since for f in chosen)
    assert all(f.is_active and viewer.admits(f.agent_id, f.scope, f.user_id) for f in chosen)
    times: list[datetime] = [f.formed_at for f in chosen]
    assert times == sorted(times, reverse=True)
    eligible = [
        f
        for f in facts
        if f.is_active and f.formed_at >= since and viewer.admits(f.agent_id, f.scope, f.user_id)
    ]
    assert len(chosen) == min(limit, len(eligible))
    if chosen:
        assert all(f.formed_at <= chosen[-1].formed_at for f in eligible if f not in chosen)


def test_the_fifo_leaves_out_facts_past_their_valid_until() -> None:
    said = T0 - timedelta(hours=2)
    ends = make_fact("ends", formed_at=said, agent_id="a1", user_id="u1")
    ended = ends.evolve(id="ended", content="ended", valid_until=T0)
    lasting = ends.evolve(valid_until=T0 + timedelta(seconds=1))
    assert select_fifo([ended, lasting], ALICE, T0, DEFAULT) == [lasting]
    assert (ended.status_label(T0), lasting.status_label(T0)) == ("expired", "active")
    assert ended.retired(T0, "contradicted", None).status_label(T0) == "retired"
