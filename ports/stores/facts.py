"""Facts and their vectors, cut by who needs them: a lookup every caller shares, and the writes
of formation, ingestion and import (``FactStore``). Answering's reads and management's
listings are in ``fact_reads``."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, SessionId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import Scope
from eden_memory.domain.supersession import Supersession
from eden_memory.ports.stores.vectors import Vector


@dataclass(frozen=True)
class ListingPosition:
    """Where a listing stopped: the ``formed_at`` and id of the last fact it returned."""

    formed_at: datetime
    id: FactId

    @classmethod
    def after(cls, fact: Fact) -> ListingPosition:
        return cls(fact.formed_at, fact.id)


@dataclass(frozen=True)
class FactQuery:
    """A management listing: one agent's facts, optionally narrowed; newest ``formed_at``
    first, then by id.

    ``after`` continues a listing past a position (keyset paging): a page then costs the
    same however deep it is, where ``offset`` makes the store skip every earlier fact.
    Export and re-embedding page this way. ``offset`` counts from ``after`` when both are set.
    """

    agent_id: AgentId
    scope: Scope | None = None
    user_id: UserId | None = None
    status: FactStatus | None = FactStatus.ACTIVE
    limit: int = 100
    offset: int = 0
    after: ListingPosition | None = None


@dataclass(frozen=True)
class FactOrigin:
    """When a fact was said, and in which session: all a search's raises read of a candidate."""

    formed_at: datetime
    session_id: SessionId | None


@dataclass(frozen=True)
class Superseding:
    """A new fact with its vector, and the fact it replaces when the host names one."""

    fact: Fact
    vector: Vector
    supersedes: FactId | None = None


class FactLookup(Protocol):
    """Facts and vectors by id, and the space they are in: what every caller of the fact ports
    reads. An adapter implements it once, with ``FactStore``, ``FactReads`` and ``FactRecords``
    on the same object (contract: ``facts``)."""

    async def embedding_space(self) -> EmbeddingSpace | None:
        """The space of the stored vectors, or None while the store holds none (an emptied
        store forgets its space)."""
        ...

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        """The facts with these ids, in the given order; unknown ids are left out."""
        ...

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]: ...


class FactStore(FactLookup, Protocol):
    """Writing facts with their vectors (formation, ingestion, import, migration). An adapter
    must: never hold two active facts with the same scope key and content hash (even under
    concurrent writers); treat a write of a stored id as done; refuse vectors of another space
    than its own; compare versions on update. Checked by ``tests/contract/store``'s ``facts``,
    ``fact_changes`` and ``supersession``."""

    async def add_facts(self, facts: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        """Store facts as given, each with its vector; return what is stored for each input.

        An *active* fact whose scope key and content hash match an active stored fact is not
        stored again: the stored one is returned in its place (exact duplicates never exist,
        even under concurrent writers). A fact whose id is already stored is not stored again
        either (a retried write is harmless): the stored one is returned. Vectors of another
        space than the store's raise ``EmbeddingSpaceError``; the first insert into an empty
        store sets its space.
        """
        ...

    async def add_superseding(
        self, items: Sequence[Superseding], now: datetime
    ) -> list[Supersession]:
        """Store each fact in order, retiring what it supersedes (``domain.supersession``,
        retired at ``now``): the fact it names, and the other active facts of its scope key
        with its ``supersede_key``; a fact older than the newest of its key is stored retired.

        One transaction where the engine has them; elsewhere each fact is stored before the
        facts it retires, so a failure leaves both active, and a retry finishes the work: a
        fact whose id is stored is not stored again, its retirements are carried out. An
        active fact with the scope key and content hash of an active stored fact changes
        nothing (that one is returned). A named fact that is neither stored nor an earlier
        item of the call raises ``NotFoundError``, one of another scope key
        ``InvalidInputError``, before anything of the call is written. Vectors as in
        ``add_facts``.
        """
        ...

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        """(scope, content hash) of this agent's active agent facts, plus the active user facts
        of ``user_id`` when it is given.

        With ``among``, only the hashes in it: writers pass the hashes of the batch they are
        about to add, so the lookup costs what the batch holds, not what the store holds.
        """
        ...

    async def update_fact(self, fact: Fact, vector: Vector | None, expected_version: int) -> Fact:
        """Replace a fact (and its vector, if given) iff its stored version is ``expected_version``.

        Raises ``NotFoundError`` for an unknown id, ``ConflictError`` when the version moved or
        when the change would make an active exact duplicate. A new vector belongs to the space
        the fact names (``embedding_model``, ``embedding_dim``): another space than the store's
        raises ``EmbeddingSpaceError``, as in ``add_facts``; the store's own moves a fact that a
        re-embedding has not reached yet. Without a vector, the stored vector and the embedding
        fields that describe it stay as they are. Returns the fact as stored.
        """
        ...
