"""``SqliteFacts``: the ``FactStore`` port on the store file.

Writes go to the writer (they also append the vectors to the vector files and count the
change, which the ranking's index reads back); reads go to the reader, through its cache
of parsed facts.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from eden_memory.adapters.stores.sqlite import fact_reads, facts, owners, supersession
from eden_memory.adapters.stores.sqlite.fact_origins import fact_origins
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.space import current_space
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.domain.supersession import Supersession
from eden_memory.ports.stores import FactOrigin, FactQuery, Superseding, Vector


class SqliteFacts:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    async def embedding_space(self) -> EmbeddingSpace | None:
        return await self._handle.reader.run(current_space)

    async def add_facts(self, facts_: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        return await self._handle.writer.run(lambda c: facts.add_facts(c, facts_, vectors))

    async def add_superseding(
        self, items: Sequence[Superseding], now: datetime
    ) -> list[Supersession]:
        return await self._handle.writer.run(lambda c: supersession.add_superseding(c, items, now))

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        parse = self._handle.parse
        return await self._handle.reader.run(lambda c: fact_reads.get_facts(c, ids, parse))

    async def fact_origins(
        self, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        return await self._handle.reader.run(lambda c: fact_origins(c, ids, visibility))

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]:
        found = await self._handle.reader.run(lambda c: fact_reads.get_vectors(c, ids))
        return {FactId(k): v for k, v in found.items()}

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        return await self._handle.reader.run(
            lambda c: fact_reads.known_hashes(c, agent_id, user_id, among)
        )

    async def update_fact(self, fact: Fact, vector: Vector | None, expected_version: int) -> Fact:
        return await self._handle.writer.run(
            lambda c: facts.update_fact(c, fact, vector, expected_version)
        )

    async def list_facts(self, query: FactQuery) -> list[Fact]:
        parse = self._handle.parse
        return await self._handle.reader.run(lambda c: fact_reads.list_facts(c, query, parse))

    async def count_facts(self, key: ScopeKey) -> int:
        return await self._handle.reader.run(lambda c: fact_reads.count_facts(c, key))

    async def fact_users(self, agent_id: AgentId, after: UserId | None, limit: int) -> list[UserId]:
        return await self._handle.reader.run(lambda c: owners.fact_users(c, agent_id, after, limit))

    async def ids_starting_with(self, agent_id: AgentId, prefix: str, limit: int) -> list[FactId]:
        return await self._handle.reader.run(
            lambda c: owners.fact_ids_from(c, agent_id, prefix, limit)
        )

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        parse = self._handle.parse
        return await self._handle.reader.run(
            lambda c: fact_reads.recent_facts(c, visibility, since, limit, parse)
        )

    async def record_access(self, ids: Sequence[FactId], now: datetime) -> None:
        await self._handle.writer.run(lambda c: facts.record_access(c, ids, now))

    async def delete_facts(self, ids: Sequence[FactId]) -> int:
        return await self._handle.writer.run(lambda c: facts.delete_facts(c, ids))

    async def reembed_facts(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        await self._handle.writer.run(lambda c: facts.reembed_facts(c, space, vectors))
