"""The domain's visibility rule, compiled into MongoDB filters.

``FactVisibility.admits`` says who may see a fact: this agent's, and agent-scoped or this
user's. The same rule is compiled twice, once into MQL (for ``find``, ``count`` and the
``filter`` inside ``$vectorSearch``) and once into Atlas Search clauses (for the ``filter``
of ``$search``'s ``compound``); a property test runs the MQL against the predicate. Both
use only operators ``$vectorSearch`` accepts in its pre-filter (``$eq``, ``$in``, ``$and``,
``$or``), so the filter sits *inside* the search stage, never in a ``$match`` after it.
"""

from __future__ import annotations

from typing import Any

from eden_memory.adapters.stores.mongo.codec import IdCodec
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.domain.models import FactStatus
from eden_memory.domain.scopes import FactVisibility, Scope

# Matches no document: what an empty visibility compiles to.
NOTHING: Document = {"agent_id": {"$in": []}}


def _eq(field: str, value: Any) -> Document:
    return {field: {"$eq": value}}


def visible(visibility: FactVisibility, ids: IdCodec) -> Document:
    """MQL selecting exactly the facts ``visibility.admits`` (any status)."""
    if visibility.is_empty:
        return NOTHING
    branches: list[Document] = []
    if Scope.AGENT in visibility.scopes:
        branches.append(_eq("scope", Scope.AGENT.value))
    if Scope.USER in visibility.scopes:
        user = ids.owner(visibility.user_id, "user_id")
        branches.append({"$and": [_eq("scope", Scope.USER.value), _eq("user_id", user)]})
    owner = _eq("agent_id", ids.owner(visibility.agent_id, "agent_id"))
    scoped = branches[0] if len(branches) == 1 else {"$or": branches}
    return {"$and": [owner, scoped]}


def visible_active(visibility: FactVisibility, ids: IdCodec, model: str | None = None) -> Document:
    """Visible active facts, optionally only those embedded by ``model``."""
    clauses = [visible(visibility, ids), _eq("status", FactStatus.ACTIVE.value)]
    if model is not None:
        clauses.append(_eq("embedding_model", model))
    return {"$and": clauses}


def _equals(path: str, value: Any) -> Document:
    return {"equals": {"path": path, "value": value}}


def search_clauses(visibility: FactVisibility, ids: IdCodec) -> list[Document]:
    """Atlas Search ``compound.filter`` clauses for visible active facts (non-empty visibility).

    ``equals`` on strings needs the fields indexed as ``token`` (see ``indexes``).
    """
    if visibility.is_empty:
        raise ValueError("an empty visibility selects nothing; do not search")
    branches: list[Document] = []
    if Scope.AGENT in visibility.scopes:
        branches.append(_equals("scope", Scope.AGENT.value))
    if Scope.USER in visibility.scopes:
        user = ids.owner(visibility.user_id, "user_id")
        both = [_equals("scope", Scope.USER.value), _equals("user_id", user)]
        branches.append({"compound": {"filter": both}})
    scoped = (
        branches[0]
        if len(branches) == 1
        else {"compound": {"should": branches, "minimumShouldMatch": 1}}
    )
    return [
        _equals("agent_id", ids.owner(visibility.agent_id, "agent_id")),
        _equals("status", FactStatus.ACTIVE.value),
        scoped,
    ]
