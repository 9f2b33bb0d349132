"""Reading the facts behind a ranking: what changed since the ranking is left out."""

from __future__ import annotations

from datetime import timedelta

from eden_memory.application.search.hits import visible_facts
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.testing import memory_stores
from tests.contract.store.world import whole_facts
from tests.unit.adapters.test_memory_store import T0, fact

ALICE = FactVisibility(AgentId("agent-a"), UserId("alice"), frozenset({Scope.AGENT, Scope.USER}))


async def test_retired_deleted_and_moved_facts_are_left_out() -> None:
    store = whole_facts(memory_stores())
    kept, retired, deleted = fact("kept", 1), fact("retired", 2), fact("deleted", 3)
    moved = fact("alice's, then bob's", 4).evolve(scope=Scope.USER, user_id=UserId("alice"))
    await store.add_facts([kept, retired, deleted, moved], [[1.0, 0.0]] * 4)
    ranked = [kept.id, retired.id, deleted.id, moved.id, FactId("never-stored")]
    # Writes that land between the ranking and the read:
    await store.update_fact(retired.retired(T0, "contradicted", kept.id), None, 1)
    await store.delete_facts([deleted.id])
    await store.update_fact(moved.evolve(user_id=UserId("bob")), None, 1)
    assert await visible_facts(store, ranked, ALICE, T0) == {kept.id: kept}
    assert await visible_facts(store, [kept.id, kept.id], ALICE, T0) == {kept.id: kept}
    assert await visible_facts(store, [], ALICE, T0) == {}


async def test_expired_facts_are_left_out_from_their_valid_until_on() -> None:
    store = whole_facts(memory_stores())
    until = T0 + timedelta(days=1)
    lasting = fact("lasting", 1).evolve(valid_until=until)
    await store.add_facts([lasting], [[1.0, 0.0]])
    assert await visible_facts(store, [lasting.id], ALICE, until - timedelta(seconds=1)) == {
        lasting.id: lasting
    }
    assert await visible_facts(store, [lasting.id], ALICE, until) == {}
