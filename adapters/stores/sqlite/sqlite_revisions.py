"""``SqliteRevisions``: the ``RevisionStore`` port on the store file.

The change counter of each scope key (what the context cache checks), and the erasure of a
whole key: its facts, reflections and blob in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite import revisions
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.scrub import scrub
from eden_memory.domain.scopes import ScopeKey


class SqliteRevisions:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle

    async def revisions(self, keys: Sequence[ScopeKey]) -> dict[ScopeKey, int]:
        return await self._handle.reader.run(lambda c: revisions.revisions(c, keys))

    async def delete_scope(self, key: ScopeKey) -> int:
        return await self._handle.writer.run(lambda c: revisions.delete_scope(c, key))

    async def scrub(self) -> None:
        await self._handle.writer.run(scrub)
        # This process's copy of the vectors too (the index lives on the searcher's thread).
        await self._handle.searcher.run(lambda _: self._handle.index.clear())
