"""Whose memory an import writes: the agent of the export, or the agents the caller names.

An export names its agent in its header and every record must be that agent's: a file of
agent ``mine`` never writes into ``victim``. A caller who means another agent says so:
``agent_id="copy"`` imports the export into ``copy``; a mapping ``{"exported": "target"}``
says where each exported agent goes (a file put together by hand may hold several).

A record keeps its id only in its own agent. Ids are global in a store, so before anything is
written every id the import would write is looked up: one that another agent holds is refused
(it would be reported "already present" while the target got nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, FactId, ReflectionId, check_id
from eden_memory.ports.stores import BufferStore, FactStore

PAGE = 500
Id = TypeVar("Id", bound=str)


@dataclass(frozen=True)
class AgentMap:
    """The caller's word on agents: none (the header's), one target, or a mapping."""

    into: AgentId | None = None
    mapping: Mapping[AgentId, AgentId] | None = None

    @classmethod
    def of(cls, value: object) -> AgentMap:
        """``None``, a target agent id, or a non-empty mapping of exported to target ids."""
        if value is None:
            return cls()
        if isinstance(value, str):
            return cls(into=AgentId(check_id(value, "agent_id")))
        if not isinstance(value, Mapping) or not value:
            raise InvalidInputError(
                "agent_id must be the agent to import into, or a non-empty mapping of exported "
                f"agent ids to target agent ids; got {type(value).__name__} {value!r:.80}"
            )
        pairs = {
            AgentId(check_id(source, "agent_id mapping's exported agent")): AgentId(
                check_id(target, "agent_id mapping's target agent")
            )
            for source, target in value.items()
        }
        if len(set(pairs.values())) < len(pairs):
            raise InvalidInputError(
                "agent_id maps two exported agents to one target: their consolidated "
                "memories would overwrite each other"
            )
        return cls(mapping=pairs)

    def targets(self, header: AgentId) -> dict[AgentId, AgentId]:
        """Each agent the file may name → the agent its records are written to."""
        if self.mapping is not None:
            return dict(self.mapping)
        return {header: self.into or header}

    def refusal(self, source: str, header: str) -> str:
        """Why a record of ``source`` may not be imported (it is not among ``targets``)."""
        if self.mapping is not None:
            named = ", ".join(repr(a) for a in sorted(self.mapping))
            return f"its agent_id {source!r} is not one the agent mapping names ({named})"
        return (
            f"its agent_id {source!r} is not the header's {header!r}: an import writes only "
            "into the agent of the export (map agents explicitly to import others)"
        )


@dataclass
class Held:
    """The ids an import would write that its target agents hold already."""

    facts: set[FactId] = field(default_factory=set)
    reflections: set[ReflectionId] = field(default_factory=set)


async def held_ids(
    facts: FactStore,
    buffers: BufferStore,
    fact_owners: Sequence[tuple[FactId, AgentId, int]],
    reflection_owners: Sequence[tuple[ReflectionId, AgentId, int]],
) -> Held:
    """The ids already stored for their target; an id another agent holds is refused.

    Each owner is (id as written, agent written to, line of the file)."""
    held = Held()
    for start in range(0, len(fact_owners), PAGE):
        page = fact_owners[start : start + PAGE]
        stored = {f.id: f.agent_id for f in await facts.get_facts([i for i, _, _ in page])}
        held.facts |= _owned(stored, page, "fact")
    for start in range(0, len(reflection_owners), PAGE // 5):
        notes = reflection_owners[start : start + PAGE // 5]  # one read each: no batch read
        found = await asyncio.gather(*(buffers.get_reflection(i) for i, _, _ in notes))
        stored_notes = {r.id: r.agent_id for r in found if r is not None}
        held.reflections |= _owned(stored_notes, notes, "reflection")
    return held


def _owned(
    stored: Mapping[Id, AgentId], page: Sequence[tuple[Id, AgentId, int]], kind: str
) -> set[Id]:
    for record_id, agent, line in page:
        if record_id in stored and stored[record_id] != agent:
            raise InvalidInputError(
                f"line {line} of the import is not valid: {kind} id {record_id!r} is already "
                "stored for another agent; nothing was imported"
            )
    return {record_id for record_id, _, _ in page if record_id in stored}
