"""The MongoDB filter is compiled from the domain's visibility rule and selects exactly it.

mongomock evaluates the compiled MQL over generated facts; whatever the world and the
viewer, the documents it selects are exactly those ``FactVisibility.admits`` admits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mongomock
import pytest
from bson import ObjectId
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.mongo.codec import IdCodec
from eden_memory.adapters.stores.mongo.options import IdMode
from eden_memory.adapters.stores.mongo.visibility import (
    NOTHING,
    search_clauses,
    visible,
    visible_active,
)
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, UserId
from eden_memory.domain.scopes import FactVisibility, Scope

AGENTS = ["agent-a", "agent-b", "65a1b2c3d4e5f6a7b8c9d0e1"]
USERS = ["user-1", "user-2", "65a1b2c3d4e5f6a7b8c9d0e2"]
HEX = {"65a1b2c3d4e5f6a7b8c9d0e1", "65a1b2c3d4e5f6a7b8c9d0e2"}
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def fact_rows(draw: st.DrawFn) -> tuple[str, Scope, str | None, str]:
    scope = draw(st.sampled_from([Scope.AGENT, Scope.USER]))
    user = draw(st.sampled_from(USERS)) if scope is Scope.USER else draw(st.none())
    status = draw(st.sampled_from(["active", "active", "retired"]))
    return draw(st.sampled_from(AGENTS)), scope, user, status


@st.composite
def viewers(draw: st.DrawFn) -> FactVisibility:
    user = draw(st.none() | st.sampled_from(USERS))
    scopes = set(draw(st.sets(st.sampled_from([Scope.AGENT, Scope.USER]))))
    if user is None:
        scopes.discard(Scope.USER)
    agent = AgentId(draw(st.sampled_from(AGENTS)))
    return FactVisibility(agent, UserId(user) if user else None, frozenset(scopes))


Row = tuple[str, Scope, str | None, str]


def _selected(rows: Sequence[Row], query: dict[str, Any], mode: IdMode) -> set[int]:
    ids = IdCodec(mode)
    collection: Any = mongomock.MongoClient().db.facts
    for n, (agent, scope, user, status) in enumerate(rows):
        owner = ids.maybe_owner(user, "user_id")
        collection.insert_one(
            {
                "_id": n,
                "agent_id": ids.owner(agent, "agent_id"),
                "scope": scope.value,
                "user_id": owner,
                "status": status,
            }
        )
    return {d["_id"] for d in collection.find(query)}


@PROPERTY
@given(rows=st.lists(fact_rows(), max_size=25), viewer=viewers())
def test_the_compiled_filter_selects_exactly_what_the_domain_admits(
    rows: list[tuple[str, Scope, str | None, str]], viewer: FactVisibility
) -> None:
    admitted = {n for n, (a, s, u, _) in enumerate(rows) if viewer.admits(a, s, u)}
    ids = IdCodec(IdMode.STRING)
    assert _selected(rows, visible(viewer, ids), IdMode.STRING) == admitted
    active = {n for n in admitted if rows[n][3] == "active"}
    assert _selected(rows, visible_active(viewer, ids), IdMode.STRING) == active


@PROPERTY
@given(rows=st.lists(fact_rows(), max_size=25), viewer=viewers())
def test_the_filter_holds_with_object_ids_too(
    rows: list[tuple[str, Scope, str | None, str]], viewer: FactVisibility
) -> None:
    hex_rows = [r for r in rows if r[0] in HEX and (r[2] is None or r[2] in HEX)]
    if viewer.agent_id not in HEX or (viewer.user_id is not None and viewer.user_id not in HEX):
        return
    admitted = {n for n, (a, s, u, _) in enumerate(hex_rows) if viewer.admits(a, s, u)}
    query = visible(viewer, IdCodec(IdMode.OBJECT_ID))
    assert _selected(hex_rows, query, IdMode.OBJECT_ID) == admitted


def test_an_empty_visibility_compiles_to_a_filter_that_matches_nothing() -> None:
    nobody = FactVisibility(AgentId("agent-a"), None, frozenset())
    assert visible(nobody, IdCodec(IdMode.STRING)) == NOTHING
    rows: list[Row] = [("agent-a", Scope.AGENT, None, "active")]
    assert _selected(rows, NOTHING, IdMode.STRING) == set()


def test_object_id_mode_stores_object_ids_and_refuses_other_ids() -> None:
    ids = IdCodec(IdMode.OBJECT_ID)
    viewer = FactVisibility(AgentId("65a1b2c3d4e5f6a7b8c9d0e1"), None, frozenset({Scope.AGENT}))
    compiled = visible(viewer, ids)
    assert compiled["$and"][0] == {"agent_id": {"$eq": ObjectId("65a1b2c3d4e5f6a7b8c9d0e1")}}
    with pytest.raises(InvalidInputError):
        visible(FactVisibility(AgentId("agent-a"), None, frozenset({Scope.AGENT})), ids)


def test_atlas_search_clauses_for_an_agent_only_viewer() -> None:
    viewer = FactVisibility(AgentId("agent-a"), UserId("user-1"), frozenset({Scope.AGENT}))
    assert search_clauses(viewer, IdCodec(IdMode.STRING)) == [
        {"equals": {"path": "agent_id", "value": "agent-a"}},
        {"equals": {"path": "status", "value": "active"}},
        {"equals": {"path": "scope", "value": "agent"}},
    ]


def test_atlas_search_clauses_for_a_user_only_viewer() -> None:
    viewer = FactVisibility(AgentId("agent-a"), UserId("user-1"), frozenset({Scope.USER}))
    assert search_clauses(viewer, IdCodec(IdMode.STRING))[2] == {
        "compound": {
            "filter": [
                {"equals": {"path": "scope", "value": "user"}},
                {"equals": {"path": "user_id", "value": "user-1"}},
            ]
        }
    }
