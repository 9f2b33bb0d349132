"""``InMemoryBuffers``: reflection buffers and consolidated blobs, with compare-and-set
between workers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.adapters.stores.memory.state import StateHolder
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey


def _oldest_first(reflection: Reflection) -> tuple[datetime, datetime, str]:
    return (reflection.formed_at, reflection.created_at, reflection.id)


class InMemoryBuffers(StateHolder):
    """The ``BufferStore`` of the in-memory store."""

    async def add_reflections(self, reflections: Sequence[Reflection]) -> None:
        await self._turn()
        self._state.buffer(reflections)

    async def get_reflection(self, reflection_id: ReflectionId) -> Reflection | None:
        await self._turn()
        return self._state.reflections.get(reflection_id)

    async def unabsorbed(self, keys: Sequence[ScopeKey]) -> list[Reflection]:
        await self._turn()
        wanted = set(keys)
        found = [r for r in self._state.reflections.values() if not r.absorbed and r.key in wanted]
        return sorted(found, key=_oldest_first)

    async def list_reflections(
        self, agent_id: AgentId, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        await self._turn()
        found = [
            r
            for r in self._state.reflections.values()
            if r.agent_id == agent_id
            and (key is None or r.key == key)
            and (include_absorbed or not r.absorbed)
        ]
        return sorted(found, key=_oldest_first)

    async def update_reflection(self, reflection: Reflection, expected_version: int) -> Reflection:
        await self._turn()
        stored = self._state.reflections.get(reflection.id)
        if stored is None:
            raise NotFoundError(f"no reflection {reflection.id!r}")
        if stored.absorbed:
            raise ConflictError(f"reflection {reflection.id!r} is already part of a blob")
        if stored.version != expected_version:
            raise ConflictError(
                f"reflection {reflection.id!r} is no longer at version {expected_version}"
            )
        self._state.reflections[reflection.id] = reflection
        self._state.bump([stored.key, reflection.key])
        return reflection

    async def delete_reflections(self, ids: Sequence[ReflectionId]) -> int:
        await self._turn()
        table = self._state.reflections
        doomed = [table[i] for i in dict.fromkeys(ids) if i in table and not table[i].absorbed]
        for reflection in doomed:
            del table[reflection.id]
        self._state.bump(r.key for r in doomed)
        return len(doomed)

    async def purge_reflections(
        self, remove: Sequence[ReflectionId], rewrite: Sequence[Reflection]
    ) -> int:
        await self._turn()
        table = self._state.reflections
        doomed = [table.pop(i) for i in dict.fromkeys(remove) if i in table]
        kept = [r for r in rewrite if r.id in table]
        for reflection in kept:
            table[reflection.id] = reflection
        self._state.bump([*(r.key for r in doomed), *(r.key for r in kept)])
        return len(doomed)

    async def get_consolidated(
        self, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        await self._turn()
        blobs = self._state.consolidated
        return {key: blobs[key] for key in keys if key in blobs}

    async def list_consolidated(self, agent_id: AgentId) -> list[ConsolidatedMemory]:
        await self._turn()
        found = [m for m in self._state.consolidated.values() if m.agent_id == agent_id]
        return sorted(found, key=lambda m: m.key)

    async def note_owners(
        self, agent_id: AgentId, scope: Scope, after: str | None, limit: int
    ) -> list[str]:
        await self._turn()
        keys = [*self._state.consolidated, *(r.key for r in self._state.reflections.values())]
        owners: set[str] = {
            o
            for k in keys
            if k.agent_id == agent_id
            and k.scope is scope
            and (o := k.user_id if scope is Scope.USER else k.session_id) is not None
        }
        found = sorted(o for o in owners if after is None or o > after)
        return found[: max(limit, 0)]

    async def note_agents(self, after: AgentId | None, limit: int) -> list[AgentId]:
        await self._turn()
        keys = [*self._state.consolidated, *(r.key for r in self._state.reflections.values())]
        agents = {k.agent_id for k in keys}
        return sorted(a for a in agents if after is None or a > after)[: max(limit, 0)]

    async def reflection_ids_starting_with(
        self, agent_id: AgentId, prefix: str, limit: int
    ) -> list[ReflectionId]:
        await self._turn()
        found = [
            i
            for i, r in self._state.reflections.items()
            if r.agent_id == agent_id and i.startswith(prefix)
        ]
        return sorted(found)[: max(limit, 0)]

    def _version(self, key: ScopeKey) -> int:
        current = self._state.consolidated.get(key)
        return current.version if current is not None else 0

    async def commit_consolidation(
        self,
        memory: ConsolidatedMemory,
        expected_version: int,
        absorbed: Sequence[ReflectionId],
        now: datetime,
    ) -> bool:
        await self._turn()
        if self._version(memory.key) != expected_version:
            return False
        self._state.consolidated[memory.key] = memory
        changed = [memory.key]
        for reflection_id in dict.fromkeys(absorbed):
            reflection = self._state.reflections.get(reflection_id)
            if reflection is None or reflection.absorbed:  # deleted, or never absorbed twice
                continue
            self._state.reflections[reflection_id] = reflection.evolve(
                absorbed=True, absorbed_at=now, absorbed_into_version=memory.version
            )
            changed.append(reflection.key)
        self._state.bump(changed)
        return True

    async def replace_consolidated(
        self, memory: ConsolidatedMemory, expected_version: int | None
    ) -> bool:
        await self._turn()
        if expected_version is not None and self._version(memory.key) != expected_version:
            return False
        self._state.consolidated[memory.key] = memory
        self._state.bump([memory.key])
        return True
