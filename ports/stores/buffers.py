"""The reflection buffers and the consolidated blobs they are absorbed into."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from eden_memory.domain.ids import AgentId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey


class NoteLookup(Protocol):
    """Reflections and blobs by id, agent or key: what every caller of the note ports reads. An
    adapter implements it once, with ``BufferStore`` and ``NoteRecords`` on the same object."""

    async def get_reflection(self, reflection_id: ReflectionId) -> Reflection | None: ...

    async def list_reflections(
        self, agent_id: AgentId, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        """One agent's reflections (of one key if given), oldest first."""
        ...

    async def get_consolidated(
        self, keys: Sequence[ScopeKey]
    ) -> dict[ScopeKey, ConsolidatedMemory]:
        """The blobs that exist for these keys."""
        ...


class BufferStore(NoteLookup, Protocol):
    """Reflections and blobs. An adapter must keep an id once, keep absorbed reflections
    unchangeable, edit a reflection only from the version it was read at, list oldest first,
    and make ``commit_consolidation`` one compare-and-set with the marking of what it
    absorbed, so of two workers exactly one wins (contract: ``reflections``)."""

    async def add_reflections(self, reflections: Sequence[Reflection]) -> None:
        """Store reflections as given; adding an id that exists already changes nothing."""
        ...

    async def unabsorbed(self, keys: Sequence[ScopeKey]) -> list[Reflection]:
        """The buffers of these keys, oldest first."""
        ...

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


class NoteRecords(NoteLookup, Protocol):
    """What managing does to notes (the console, the command line, erasure, export): edits and
    removals a person asks for, the erasure's purge, pages of owners, short ids."""

    async def list_consolidated(self, agent_id: AgentId) -> list[ConsolidatedMemory]: ...

    async def update_reflection(self, reflection: Reflection, expected_version: int) -> Reflection:
        """Compare-and-set: replace an unabsorbed reflection iff its stored version is
        ``expected_version`` (1 for one stored before reflections had versions).

        ``ConflictError``, changing nothing, once it is absorbed or at another version: of two
        edits from one version exactly one wins."""
        ...

    async def delete_reflections(self, ids: Sequence[ReflectionId]) -> int:
        """Remove unabsorbed reflections; absorbed ones are part of a blob and stay."""
        ...

    async def purge_reflections(
        self, remove: Sequence[ReflectionId], rewrite: Sequence[Reflection]
    ) -> int:
        """Erasure only: remove these reflections and store these as given, absorbed or not
        (a user's erasure takes their notes out of blobs too, and their id out of the rest).

        Returns how many of ``remove`` existed. Unknown ids in ``rewrite`` are not created.
        """
        ...

    async def note_owners(
        self, agent_id: AgentId, scope: Scope, after: str | None, limit: int
    ) -> list[str]:
        """A page of the users (``Scope.USER``) or sessions (``Scope.SESSION``) of this agent
        that hold a blob or reflections (absorbed or not): ascending, only those after
        ``after``, at most ``limit``. Costs what the page holds, not what the store holds."""
        ...

    async def note_agents(self, after: AgentId | None, limit: int) -> list[AgentId]:
        """A page of the agents that hold a blob or reflections in any scope: ascending, only
        those after ``after``, at most ``limit``."""
        ...

    async def reflection_ids_starting_with(
        self, agent_id: AgentId, prefix: str, limit: int
    ) -> list[ReflectionId]:
        """The ids of this agent's reflections (absorbed or not) that start with ``prefix``,
        ascending, at most ``limit``: how a person's shortened id is resolved."""
        ...
