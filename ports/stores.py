"""The store, cut into the concerns the use cases need.

One adapter object usually implements all of them (``MemoryStore``); services ask only for
the protocol they use. Every method is atomic on its own; the ones that must hold across
workers (claims, compare-and-set, access counts) say so, and the contract suite checks it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import (
    Claim,
    ConsolidatedMemory,
    Fact,
    FactStatus,
    Message,
    Reflection,
    SessionState,
)
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey

Vector = Sequence[float]


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


class FactStore(Protocol):
    """Facts with their vectors. An adapter must: never hold two active facts with the same
    scope key and content hash; treat a write of a stored id as done; refuse vectors of another
    space than its own; compare versions on update; rank only visible, active facts of its
    current space, returning ids and scores (``Hit``). Checked by ``tests/contract/store``'s
    ``facts``, ``fact_changes``, ``search``, ``keyword_changes`` and ``visibility``."""

    async def embedding_space(self) -> EmbeddingSpace | None:
        """The space of the stored vectors, or None while the store holds none (an emptied
        store forgets its space)."""
        ...

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

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        """The facts with these ids, in the given order; unknown ids are left out."""
        ...

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]: ...

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

    async def list_facts(self, query: FactQuery) -> list[Fact]: ...

    async def count_facts(self, key: ScopeKey) -> int:
        """Active facts of one scope key."""
        ...

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        """Active visible facts formed at or after ``since``, newest first, at most ``limit``."""
        ...

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        """Active visible facts by cosine similarity to ``vector``, best first: ``Hit(id, cosine)``.

        Scores are the cosine in [-1, 1] (an engine that reports another scale converts back).
        Rankings carry ids only: a search fuses several and reads just the facts it keeps.

        Visibility is applied *before* ranking: ``limit`` visible results come back whenever
        that many exist. Only facts embedded in the store's current space take part.

        ``space`` is the query vector's: another space than the store's raises
        ``EmbeddingSpaceError`` (checked with the ranking's own read of the store's space, so a
        search costs no extra round trip); a store without a space (``embedding_space()`` is
        None) ranks nothing, whatever the query's.
        """
        ...

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        """Active visible facts ranked by keyword relevance (BM25 or the engine's own), best first.

        Scores are positive and larger is better; ``text_score_threshold`` is this engine's
        calibrated floor for a meaningful match.
        """
        ...

    @property
    def text_score_threshold(self) -> float: ...

    async def record_access(self, ids: Sequence[FactId], now: datetime) -> None:
        """Add one to each fact's ``access_count`` (atomically) and set ``last_accessed_at``."""
        ...

    async def delete_facts(self, ids: Sequence[FactId]) -> int:
        """Remove facts physically (management only); returns how many existed."""
        ...

    async def reembed_facts(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        """Give these facts vectors of ``space``, which becomes the store's space from now on.

        Facts not yet moved leave semantic search until they are, so spaces never mix.
        """
        ...


class ReflectionStore(Protocol):
    """The reflection buffers. An adapter must keep an id once, keep absorbed reflections
    unchangeable, and list oldest first (contract: ``reflections``)."""

    async def add_reflections(self, reflections: Sequence[Reflection]) -> None:
        """Store reflections as given; adding an id that exists already changes nothing."""
        ...

    async def get_reflection(self, reflection_id: ReflectionId) -> Reflection | None: ...

    async def unabsorbed(self, keys: Sequence[ScopeKey]) -> list[Reflection]:
        """The buffers of these keys, oldest first."""
        ...

    async def list_reflections(
        self, agent_id: AgentId, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        """One agent's reflections (of one key if given), oldest first."""
        ...

    async def update_reflection(self, reflection: Reflection) -> Reflection:
        """Replace an unabsorbed reflection; ``ConflictError`` once it is absorbed."""
        ...

    async def delete_reflections(self, ids: Sequence[ReflectionId]) -> int:
        """Remove unabsorbed reflections; absorbed ones are part of a blob and stay."""
        ...


class ConsolidatedStore(Protocol):
    """The consolidated blobs. An adapter must make ``commit_consolidation`` one compare-and-set
    with the marking of what it absorbed, so of two workers exactly one wins (contract:
    ``reflections``)."""

    async def get_consolidated(
        self, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        """The blobs that exist for these keys."""
        ...

    async def list_consolidated(self, agent_id: AgentId) -> list[ConsolidatedMemory]: ...

    async def commit_consolidation(
        self,
        memory: ConsolidatedMemory,
        expected_version: int,
        absorbed: Sequence[ReflectionId],
        now: datetime,
    ) -> bool:
        """Compare-and-set: store ``memory`` iff the stored version is ``expected_version``
        (0 when none exists), then mark exactly ``absorbed`` as absorbed into its version.

        Returns False, changing nothing, when another worker consolidated first.
        """
        ...

    async def replace_consolidated(
        self, memory: ConsolidatedMemory, expected_version: int | None
    ) -> bool:
        """Store a blob as given; with ``expected_version``, only if the version still matches."""
        ...


@dataclass(frozen=True)
class PendingMessage:
    message: Message
    weighted_tokens: float


class SessionStore(Protocol):
    """Sessions, their pending messages and the claims on them. An adapter must make a claim
    atomic across workers (at most one unexpired claim per session), keep a saved plan until
    the claim completes, and ignore a message id recorded twice (contract: ``sessions``,
    ``claims``)."""

    async def record_messages(
        self, profile: SessionProfile, messages: Sequence[PendingMessage], now: datetime
    ) -> SessionState:
        """Append messages to the session's pending work and refresh its profile.

        A message id already recorded for the session is ignored (safe to retry a turn).
        Creates the session on first use; sets ``last_activity_at`` to ``now``.
        """
        ...

    async def get_session(
        self, agent_id: AgentId, session_id: SessionId
    ) -> SessionState | None: ...

    async def claim_messages(
        self,
        agent_id: AgentId,
        session_id: SessionId,
        claim_id: str,
        now: datetime,
        ttl_seconds: float,
        min_messages: int,
        limit: int,
    ) -> Claim | None:
        """Atomically take up to ``limit`` oldest pending messages (by ``sent_at``, then recording
        order) for one worker; an expired claim's messages can be taken again.

        Succeeds only when no unexpired claim exists and at least ``min_messages`` are pending;
        of any number of concurrent callers, at most one gets a claim. The claim carries the
        plan saved on the session by an earlier claim that did not complete (``save_plan``).
        """
        ...

    async def save_plan(self, claim: Claim, plan: str) -> None:
        """Keep a formation's plan on its session, replacing any earlier one, until a
        ``complete_claim`` of the session clears it; releasing or losing the claim keeps it.

        Raises ``ConflictError`` when the claim is no longer the session's current one.
        """
        ...

    async def complete_claim(
        self, claim: Claim, reflections: Sequence[Reflection], now: datetime
    ) -> None:
        """Finish a formation: buffer its reflections, mark its messages formed and clear the
        session's saved plan, together.

        Raises ``ConflictError`` when the claim is no longer the session's current one (it
        expired and another worker took the messages, or it was released).
        """
        ...

    async def release_claim(self, claim: Claim) -> None:
        """Give the messages back after a failure, so a retry need not wait for expiry."""
        ...

    async def end_session(
        self, agent_id: AgentId, session_id: SessionId, now: datetime
    ) -> SessionState | None: ...

    async def cold_sessions(
        self, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        """Sessions last active at or before ``idle_before`` with ``min_messages`` or more pending.

        A listed session may be claimed by another worker meanwhile; claiming it then fails.
        """
        ...

    async def sessions_of_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionState]: ...

    async def delete_session(self, agent_id: AgentId, session_id: SessionId) -> int:
        """Remove a session's messages and state; returns messages removed."""
        ...

    async def delete_messages_by_author(self, agent_id: AgentId, author_id: str) -> int:
        """Remove one author's messages from every session of the agent; they are never formed."""
        ...


class RevisionStore(Protocol):
    """A change counter per scope key. An adapter must move it on every change of the key's
    facts, reflections or blob (never on access counts) and never move it back; the context
    cache relies on it alone (contract: ``revisions``)."""

    async def revisions(self, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        """A counter per scope key that moves on every change to its facts, reflections or blob.

        Every requested key is returned: 0 before its first change, never going back.
        Context caches compare it to notice changes made by other sessions or processes.
        """
        ...

    async def delete_scope(self, key: ScopeKey) -> int:
        """Remove every fact, reflection and blob of one key; returns records removed."""
        ...


class MemoryStore(
    FactStore, ReflectionStore, ConsolidatedStore, SessionStore, RevisionStore, Protocol
):
    """Everything the library keeps, as one adapter."""

    async def close(self) -> None: ...
