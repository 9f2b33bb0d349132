"""What a host's new fact supersedes: the fact it names, and the older facts of its key."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import Scope
from eden_memory.domain.supersession import supersede
from tests.unit.domain.builders import PROPERTY, T0, make_fact

NOW = T0 + timedelta(days=400)


def keyed(fact_id: str, days: int, key: str | None = "user.home_city", **kw: object) -> Fact:
    said = T0 + timedelta(days=days)
    fact = make_fact(fact_id, f"fact {fact_id}", formed_at=said, **kw)  # type: ignore[arg-type]
    return fact.evolve(supersede_key=key)


def test_a_fact_keeps_its_supersede_key_and_valid_until() -> None:
    fact = make_fact().evolve(supersede_key="user.home_city", valid_until=T0 + timedelta(days=1))
    assert fact.supersede_key == "user.home_city"
    assert not fact.expired(T0)
    assert fact.expired(T0 + timedelta(days=1))


def test_a_valid_until_at_or_before_formed_at_is_refused() -> None:
    for until in (T0, T0 - timedelta(seconds=1)):
        with pytest.raises(ValueError, match=r"valid_until .* must be after formed_at"):
            make_fact().evolve(valid_until=until)


def test_a_supersede_key_must_be_a_plain_key() -> None:
    for bad in ("", "a key with spaces", "$where", "x" * 201):
        with pytest.raises(ValueError, match="supersede key"):
            make_fact().evolve(supersede_key=bad)


def test_a_newer_fact_of_a_key_retires_the_older_one() -> None:
    boston, denver = keyed("boston", 0), keyed("denver", 90)
    done = supersede(denver, [boston], NOW)
    assert done.fact == denver
    [retired] = done.retired
    assert (retired.id, retired.status, retired.superseded_by) == (
        "boston",
        FactStatus.RETIRED,
        "denver",
    )
    assert retired.retired_at == NOW
    assert retired.content == boston.content


def test_a_fact_older_than_the_active_one_of_its_key_is_stored_retired() -> None:
    boston, denver = keyed("boston", 0), keyed("denver", 90)
    done = supersede(boston, [denver], NOW)
    assert done.retired == ()
    assert done.fact.status is FactStatus.RETIRED
    assert done.fact.superseded_by == "denver"


def test_only_the_same_key_of_the_same_scope_key_competes() -> None:
    new = keyed("new", 90)
    other_key = keyed("job", 0, key="user.job")
    no_key = keyed("plain", 0, key=None)
    other_user = keyed("bob", 0, user_id="user-2")
    agent = keyed("agent", 0, scope=Scope.AGENT)
    retired = keyed("old", 0).retired(T0, "contradicted", None)
    done = supersede(new, [other_key, no_key, other_user, agent, retired], NOW)
    assert done == supersede(new, [], NOW)
    assert supersede(keyed("plain2", 90, key=None), [no_key], NOW).retired == ()


def test_a_named_fact_is_retired_whatever_its_time_or_key() -> None:
    named = keyed("named", 200, key=None)
    new = keyed("new", 90, key=None)
    done = supersede(new, [], NOW, FactId("named"), named)
    assert done.fact == new
    assert [(f.id, f.superseded_by) for f in done.retired] == [("named", "new")]


def test_a_retired_named_fact_is_left_as_it_is() -> None:
    named = keyed("named", 0).retired(T0, "contradicted", None)
    assert supersede(keyed("new", 90), [], NOW, FactId("named"), named).retired == ()


def test_a_named_fact_must_exist_be_another_and_share_the_scope_key() -> None:
    new = keyed("new", 90)
    with pytest.raises(NotFoundError, match="fact gone to supersede is not stored"):
        supersede(new, [], NOW, FactId("gone"), None)
    with pytest.raises(NotFoundError, match="fact x to supersede is not stored"):
        supersede(new, [], NOW, FactId("x"), keyed("x", 0, agent_id="agent-2"))
    with pytest.raises(InvalidInputError, match="cannot supersede itself"):
        supersede(new, [], NOW, FactId("new"), new)
    with pytest.raises(InvalidInputError, match="is in agent scope, not user scope of user user-1"):
        supersede(new, [], NOW, FactId("a"), keyed("a", 0, scope=Scope.AGENT))


@PROPERTY
@given(st.lists(st.integers(0, 30), min_size=1, max_size=8), st.integers(0, 30))
def test_of_a_key_exactly_the_newest_stays_active(held: list[int], day: int) -> None:
    holders = [keyed(f"h{i}", d) for i, d in enumerate(held)]
    new = keyed("new", day)
    done = supersede(new, holders, NOW)
    after = {f.id: f for f in [*holders, done.fact]} | {f.id: f for f in done.retired}
    active = [f for f in after.values() if f.is_active]
    assert len(active) == 1
    newest = max(f.formed_at for f in after.values())
    assert active[0].formed_at == newest
    if day >= max(held):
        assert active[0].id == "new"  # a tie goes to the newcomer
    assert all(f.superseded_by == active[0].id for f in after.values() if not f.is_active)
