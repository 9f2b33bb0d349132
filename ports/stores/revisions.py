"""Change counters per scope key, and removing a whole key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from eden_memory.domain.scopes import ScopeKey


class RevisionStore(Protocol):
    """A change counter per scope key. An adapter must move it on every change of the key's
    facts, reflections or blob (never on access counts) and never move it back; the context
    cache relies on it alone. It sees the writes of the ``FactStore`` and ``BufferStore`` of
    the same ``Stores``, and ``delete_scope`` removes from both (contract: ``revisions``)."""

    async def revisions(self, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        """A counter per scope key that moves on every change to its facts, reflections or blob.

        Every requested key is returned: 0 before its first change, never going back.
        Context caches compare it to notice changes made by other sessions or processes.
        """
        ...

    async def delete_scope(self, key: ScopeKey) -> int:
        """Remove every fact, reflection and blob of one key; returns records removed."""
        ...

    async def scrub(self) -> None:
        """Make what was removed unreadable from the store's own files (after an erasure):
        freed pages overwritten, logs and side files of removed records rewritten. A store
        whose files another system manages (a database server) documents what it cannot do."""
        ...
