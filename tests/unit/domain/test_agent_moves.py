"""Moving a record to another agent: ids derived, never shared, links kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.agent_moves import moved_blob, moved_fact, moved_id, moved_reflection
from eden_memory.domain.ids import AgentId, FactId, check_id
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import ScopeKey
from tests.unit.domain.builders import T0, make_fact, make_reflection

ids = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=200)


@given(ids, ids, ids, ids)
def test_a_moved_id_is_a_valid_id_that_depends_on_both_agents_and_the_old_id(
    source: str, target: str, old: str, other: str
) -> None:
    new = moved_id(AgentId(source), AgentId(target), old)
    assert check_id(new) == new == moved_id(AgentId(source), AgentId(target), old)
    assert new != old
    if other != old:
        assert new != moved_id(AgentId(source), AgentId(target), other)
    if other != target:
        assert new != moved_id(AgentId(source), AgentId(other), old)
    if other != source:
        assert new != moved_id(AgentId(other), AgentId(target), old)


def test_a_moved_fact_keeps_its_links_to_the_moved_facts() -> None:
    newer = make_fact("f2", "Alice likes black tea", agent_id="nova")
    older = make_fact("f1", agent_id="nova").retired(T0, "contradicted", newer.id)
    first = make_fact("f3", agent_id="nova")
    merged = first.revised("x y", T0, merged_from=FactId("f9"), space=first.embedding_space)
    target = AgentId("copy")
    assert moved_fact(older, target).superseded_by == moved_fact(newer, target).id
    assert moved_fact(merged, target).history[0].merged_from == moved_id(
        AgentId("nova"), target, "f9"
    )
    assert {moved_fact(f, target).agent_id for f in (older, newer, merged)} == {"copy"}


def test_a_record_of_its_own_agent_is_not_moved() -> None:
    fact = make_fact(agent_id="nova")
    note = make_reflection("r1", ScopeKey.user("nova", "alice"))
    blob = ConsolidatedMemory.empty(ScopeKey.user("nova", "alice"), 300)
    nova = AgentId("nova")
    assert (moved_fact(fact, nova), moved_reflection(note, nova), moved_blob(blob, nova)) == (
        fact,
        note,
        blob,
    )
    assert moved_blob(blob, AgentId("copy")).key == ScopeKey.user("copy", "alice")
    assert moved_reflection(note, AgentId("copy")).id == moved_id(nova, AgentId("copy"), "r1")
