"""The two things a migration needs besides the target store and embedder.

* ``V1Source`` reads the first system's collections. It is read-only by construction: the
  protocol has no method that writes, so no code path of the migration can change v1 data.
* ``RunJournal`` keeps, per run, the manifest of what the run wrote (recorded *before*
  each write, so after a crash it is a superset of what reached the store), the final
  report and the rollback record. The store port has no general-purpose record type, and
  the manifest must survive the store being rolled back, so it lives beside the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

V1Doc = Mapping[str, Any]

# The v1 collection names (seed 003).
SESSIONS = "memory_sessions"
USERS = "memory_user"
AGENTS = "memory_agent"


class V1Source(Protocol):
    """The first system's data, read only. An adapter must never write, and must hand over
    the documents as stored (the migration decides what it can use and reports the rest).
    A read that fails raises the library's ``StoreUnavailableError`` (worth running again)
    or ``StoreError``, never its driver's exception."""

    @property
    def label(self) -> str:
        """Where the data comes from, without credentials (it goes into reports)."""
        ...

    async def agent_ids(self) -> list[str]:
        """Every agent id found in the three collections, in canonical string form, sorted."""
        ...

    async def unowned(self) -> dict[str, list[str | None]]:
        """Per collection, the ids of documents whose ``agent_id`` is missing or unusable."""
        ...

    async def user_memories(self, agent_id: str) -> list[V1Doc]:
        """``memory_user`` documents of one agent (its id in ObjectId or string form)."""
        ...

    async def agent_shards(self, agent_id: str) -> list[V1Doc]:
        """``memory_agent`` documents (shards) of one agent."""
        ...

    async def session_memories(self, agent_id: str) -> list[V1Doc]:
        """``memory_sessions`` documents of one agent, every memory type."""
        ...

    async def session_memories_by_id(self, ids: Sequence[str]) -> list[V1Doc]:
        """``memory_sessions`` documents by id (either form), to resolve references whose
        target lacks a usable ``agent_id``."""
        ...


class RunJournal(Protocol):
    """The record of each migration run. An adapter must make ``record`` durable before it
    returns (the manifest is what a rollback undoes), keep entries in order, and survive a
    rollback of the target store."""

    async def start(self, run_id: str, header: Mapping[str, Any]) -> None: ...

    async def header(self, run_id: str) -> dict[str, Any] | None: ...

    async def unfinished(self, fingerprint: str) -> str | None:
        """The newest run of this job that started and neither finished nor was rolled back."""
        ...

    async def record(self, run_id: str, entries: Sequence[Mapping[str, Any]]) -> None:
        """Append manifest entries durably; called before the write they describe."""
        ...

    async def entries(self, run_id: str) -> list[dict[str, Any]]: ...

    async def finish(self, run_id: str, report: Mapping[str, Any]) -> None: ...

    async def report(self, run_id: str) -> dict[str, Any] | None: ...

    async def mark_rolled_back(self, run_id: str, summary: Mapping[str, Any]) -> None: ...

    async def rolled_back(self, run_id: str) -> dict[str, Any] | None:
        """The summary ``mark_rolled_back`` stored, or None if the run was never rolled back."""
        ...
