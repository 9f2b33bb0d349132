"""``SqliteRanking``: the ``FactRanking`` port on the store file.

Semantic ranking is an exact scan of the in-memory vector index, which the searcher brings
up to date from the file's change log before each search (so writes by this process and by
others are seen alike; ``vector_index``); a partition it had to read from the fact rows has
its vector log mended by the writer after the search. Keyword ranking is FTS5's BM25
(``keyword``).
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from functools import partial

from eden_memory.adapters.stores.sqlite import keyword, semantic, vector_log_writes
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import StoreError
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import Vector


class SqliteRanking:
    def __init__(self, handle: SqliteHandle) -> None:
        self._handle = handle
        self._mending: asyncio.Task[None] | None = None

    @property
    def text_score_threshold(self) -> float:
        return keyword.TEXT_SCORE_THRESHOLD

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        index = self._handle.index
        ranked = await self._handle.searcher.run(
            lambda c: semantic.semantic_ranking(c, index, vector, visibility, limit, space)
        )
        if index.mending and (self._mending is None or self._mending.done()):
            self._mending = asyncio.create_task(self._mend_vector_logs())
        return ranked

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        return await self._handle.reader.run(
            lambda c: keyword.keyword_ranking(c, text, visibility, limit)
        )

    async def settle(self) -> None:
        """Let the mending of vector logs a search started finish (before the handle closes)."""
        if self._mending is not None:
            await self._mending

    async def _mend_vector_logs(self) -> None:
        """Build or compact the logs a search found missing or mostly dead, after the search.

        The logs follow the fact rows: any failure leaves the rows to be read again next
        time, never an error.
        """
        handle = self._handle
        with suppress(StoreError):
            mends = await handle.searcher.run(lambda c: handle.index.mends())
            for key, seen in mends:
                await handle.writer.run(
                    partial(vector_log_writes.mend, key=key, dtype=handle.dtype, seen=seen)
                )
