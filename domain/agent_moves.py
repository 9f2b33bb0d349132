"""Moving a record to another agent (an import with an agent mapping): a new owner, new ids.

Fact and reflection ids are global in every store, and a store treats a write of a stored id
as done, returning the stored record. A record kept under its id in another agent would
therefore either collide with its source (in the same store) or be "already present" as the
source's record. A moved record gets an id derived from its old id and both agents: importing
the same export into the same agent again finds every record again (nothing is written
twice), and a copy lives beside its source. Links between records (``superseded_by``, a
revision's ``merged_from``) are derived the same way, so they keep pointing at the copies.
"""

from __future__ import annotations

import hashlib

from eden_memory.domain.ids import AgentId, FactId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection


def moved_id(source: AgentId, target: AgentId, old_id: str) -> str:
    """The id a record of ``source`` gets in ``target``: 128 bits of a hash, as formation's ids."""
    parts = ("moved", source, target, old_id)
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def moved_fact(fact: Fact, target: AgentId) -> Fact:
    """The fact owned by ``target``, under its derived id, its links derived alike."""
    if fact.agent_id == target:
        return fact

    def new(old: str | None) -> FactId | None:
        return None if old is None else FactId(moved_id(fact.agent_id, target, old))

    history = tuple(r.evolve(merged_from=new(r.merged_from)) for r in fact.history)
    return fact.evolve(
        id=new(fact.id),
        agent_id=target,
        superseded_by=new(fact.superseded_by),
        history=history,
    )


def moved_reflection(reflection: Reflection, target: AgentId) -> Reflection:
    if reflection.agent_id == target:
        return reflection
    new_id = ReflectionId(moved_id(reflection.agent_id, target, reflection.id))
    return reflection.evolve(id=new_id, agent_id=target)


def moved_blob(blob: ConsolidatedMemory, target: AgentId) -> ConsolidatedMemory:
    """A blob has no id: its key (scope, agent, user or session) is its identity."""
    return blob if blob.agent_id == target else blob.evolve(agent_id=target)
