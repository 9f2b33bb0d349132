"""The fact ports of answering and of managing: what a search or a context reads, and what an
operator lists, resolves and removes. The same adapter object implements them and
``FactStore``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, ScopeKey
from eden_memory.ports.stores.facts import FactLookup, FactOrigin, FactQuery
from eden_memory.ports.stores.vectors import Vector


class FactReads(FactLookup, Protocol):
    """What answering reads (search, context, why a search came back empty). An adapter must
    count an access atomically (contract: ``facts``, ``visibility``)."""

    async def fact_origins(
        self, ids: Sequence[FactId], visibility: FactVisibility
    ) -> dict[FactId, FactOrigin]:
        """The origin of each of ``ids`` that is active and visible to ``visibility``.

        A search reads this of all its candidates and whole facts only of the ones it
        returns: decoding a whole record costs ~30 us, as much as ranking 1,000 vectors.
        """
        ...

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        """Active visible facts formed at or after ``since``, newest first, at most ``limit``."""
        ...

    async def count_facts(self, key: ScopeKey) -> int:
        """Active facts of one scope key."""
        ...

    async def fact_users(self, agent_id: AgentId, after: UserId | None, limit: int) -> list[UserId]:
        """A page of the users who hold user facts (any status) of this agent: ascending,
        only those after ``after``, at most ``limit``. Costs what the page holds, not what
        the store holds (the console's list of users with memory)."""
        ...

    async def record_access(self, ids: Sequence[FactId], now: datetime) -> None:
        """Add one to each fact's ``access_count`` (atomically) and set ``last_accessed_at``."""
        ...


class FactRecords(FactLookup, Protocol):
    """What managing lists and removes (the console, the command line, erasure, export,
    re-embedding): keyset listings, pages of owners, short ids, physical deletion."""

    async def list_facts(self, query: FactQuery) -> list[Fact]: ...

    async def fact_agents(self, after: AgentId | None, limit: int) -> list[AgentId]:
        """A page of the agents that hold facts (any scope, any status): ascending, only those
        after ``after``, at most ``limit`` (the command line's list of a store's agents)."""
        ...

    async def ids_starting_with(self, agent_id: AgentId, prefix: str, limit: int) -> list[FactId]:
        """The ids of this agent's facts (any status) that start with ``prefix``, ascending,
        at most ``limit``: how a person's shortened id is resolved."""
        ...

    async def delete_facts(self, ids: Sequence[FactId]) -> int:
        """Remove facts physically (management only); returns how many existed."""
        ...

    async def reembed_facts(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        """Give these facts vectors of ``space``, which becomes the store's space from now on.

        Facts not yet moved leave semantic search until they are, so spaces never mix.
        """
        ...
