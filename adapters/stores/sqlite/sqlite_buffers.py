"""``SqliteBuffers``: the ``BufferStore`` port on the store file.

Reflections waiting to be consolidated, and the consolidated blob of each scope key. A
consolidation's commit (the new blob and the reflections it absorbed) is one transaction,
with compare-and-set on the blob's version.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite import consolidated, owners, reflections
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey


class SqliteBuffers:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    async def add_reflections(self, reflections_: Sequence[Reflection]) -> None:
        await self._handle.writer.run(lambda c: reflections.add_reflections(c, reflections_))

    async def get_reflection(self, reflection_id: ReflectionId) -> Reflection | None:
        return await self._handle.reader.run(lambda c: reflections.get_reflection(c, reflection_id))

    async def unabsorbed(self, keys: Sequence[ScopeKey]) -> list[Reflection]:
        return await self._handle.reader.run(lambda c: reflections.unabsorbed(c, keys))

    async def list_reflections(
        self, agent_id: AgentId, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        return await self._handle.reader.run(
            lambda c: reflections.list_reflections(c, agent_id, key, include_absorbed)
        )

    async def update_reflection(self, reflection: Reflection, expected_version: int) -> Reflection:
        return await self._handle.writer.run(
            lambda c: reflections.update_reflection(c, reflection, expected_version)
        )

    async def delete_reflections(self, ids: Sequence[ReflectionId]) -> int:
        return await self._handle.writer.run(lambda c: reflections.delete_reflections(c, ids))

    async def purge_reflections(
        self, remove: Sequence[ReflectionId], rewrite: Sequence[Reflection]
    ) -> int:
        return await self._handle.writer.run(
            lambda c: reflections.purge_reflections(c, remove, rewrite)
        )

    async def get_consolidated(
        self, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        return await self._handle.reader.run(lambda c: consolidated.get_consolidated(c, keys))

    async def list_consolidated(self, agent_id: AgentId) -> list[ConsolidatedMemory]:
        return await self._handle.reader.run(lambda c: consolidated.list_consolidated(c, agent_id))

    async def note_owners(
        self, agent_id: AgentId, scope: Scope, after: str | None, limit: int
    ) -> list[str]:
        return await self._handle.reader.run(
            lambda c: owners.note_owners(c, agent_id, scope, after, limit)
        )

    async def reflection_ids_starting_with(
        self, agent_id: AgentId, prefix: str, limit: int
    ) -> list[ReflectionId]:
        return await self._handle.reader.run(
            lambda c: owners.reflection_ids_from(c, agent_id, prefix, limit)
        )

    async def commit_consolidation(
        self,
        memory: ConsolidatedMemory,
        expected_version: int,
        absorbed: Sequence[ReflectionId],
        now: datetime,
    ) -> bool:
        return await self._handle.writer.run(
            lambda c: consolidated.commit_consolidation(c, memory, expected_version, absorbed, now)
        )

    async def replace_consolidated(
        self, memory: ConsolidatedMemory, expected_version: int | None
    ) -> bool:
        return await self._handle.writer.run(
            lambda c: consolidated.replace_consolidated(c, memory, expected_version)
        )
