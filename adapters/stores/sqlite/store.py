"""``SqliteStore``: the whole ``MemoryStore`` port in one SQLite file.

Zero setup: give it a path (folders are created) and it makes or upgrades the file. Several
processes may open the same file; claims, compare-and-set and counters hold across them
(see ``claims`` and ``revisions``). Keyword relevance is FTS5's BM25 (``keyword``); vector
search is exact, over in-memory float32 matrices kept in step with the file
(``vector_index``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from contextlib import suppress
from datetime import datetime
from functools import partial
from pathlib import Path
from types import TracebackType

from eden_memory.adapters.stores.sqlite import fact_reads, facts, keyword, semantic, vector_files
from eden_memory.adapters.stores.sqlite.connection import (
    BUSY_TIMEOUT_SECONDS,
    Worker,
    connect,
    translated,
)
from eden_memory.adapters.stores.sqlite.fact_cache import FactCache
from eden_memory.adapters.stores.sqlite.scan import Precision, choose
from eden_memory.adapters.stores.sqlite.schema import optimize, prepare
from eden_memory.adapters.stores.sqlite.space import current_space
from eden_memory.adapters.stores.sqlite.store_memory import MemoryMethods
from eden_memory.adapters.stores.sqlite.store_sessions import SessionMethods
from eden_memory.adapters.stores.sqlite.vector_file import VectorFolder
from eden_memory.adapters.stores.sqlite.vector_index import VectorIndex
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import StoreError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import FactVisibility, Scope, ScopeKey
from eden_memory.ports.stores import FactQuery, Vector


class SqliteStore(MemoryMethods, SessionMethods):
    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        vector_precision: Precision = "auto",
    ) -> None:
        """Open (creating or upgrading) the store file at ``path``.

        ``busy_timeout``: seconds a write waits for another process's lock before failing
        with ``StoreUnavailableError``. ``vector_precision``: how the search keeps vectors in
        memory; ``half`` (float16 and SimSIMD, with exact float32 re-scoring of the close
        calls: half the memory, faster) or ``single`` (float32 and BLAS). ``auto`` picks
        ``half`` when SimSIMD is installed and its kernel passes a soundness check, which
        may switch off SimSIMD's half-adding kernels for the whole process (``half_kernels``).
        Either way the ranking and scores are those of an exact float32 scan.
        """
        scan = choose(vector_precision)
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder of the store {self.path}: {exc}") from exc
        conns = [connect(self.path, busy_timeout=busy_timeout)]
        try:
            with translated():
                prepare(conns[0])
            for mapped in (True, False):  # the reader's, then the vector searcher's
                conns.append(
                    connect(self.path, busy_timeout=busy_timeout, read_only=True, mapped=mapped)
                )
        except BaseException:
            for conn in conns:
                conn.close()
            raise
        self._folder = VectorFolder(self.path.with_name(self.path.name + ".vectors"), scan.dtype)
        conns[0].vector_folder = self._folder  # the writer appends to the files
        self._writer = Worker("eden-sqlite-writer", conns[0])
        self._reader = Worker("eden-sqlite-reader", conns[1])
        self._searcher = Worker("eden-sqlite-vectors", conns[2])
        self._index = VectorIndex(scan, self._folder)
        self._saving: asyncio.Task[None] | None = None
        # The cache belongs to the reader's thread, as the index to the searcher's.
        self._parse = FactCache().fact

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        vector_precision: Precision = "auto",
    ) -> SqliteStore:
        """Open without blocking the event loop (opening may wait for another process)."""
        return await asyncio.to_thread(
            cls, path, busy_timeout=busy_timeout, vector_precision=vector_precision
        )

    async def close(self) -> None:
        if self._saving is not None:
            await self._saving
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with suppress(StoreError):  # planner statistics are a courtesy, never a failure
            self._writer.call(optimize)
        self._searcher.close()
        self._reader.close()
        self._writer.close()
        self._index.clear()

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def text_score_threshold(self) -> float:
        return keyword.TEXT_SCORE_THRESHOLD

    async def embedding_space(self) -> EmbeddingSpace | None:
        return await self._reader.run(current_space)

    async def add_facts(self, facts_: Sequence[Fact], vectors: Sequence[Vector]) -> list[Fact]:
        return await self._writer.run(lambda c: facts.add_facts(c, facts_, vectors))

    async def get_facts(self, ids: Sequence[FactId]) -> list[Fact]:
        return await self._reader.run(lambda c: fact_reads.get_facts(c, ids, self._parse))

    async def get_vectors(self, ids: Sequence[FactId]) -> dict[FactId, list[float]]:
        found = await self._reader.run(lambda c: fact_reads.get_vectors(c, ids))
        return {FactId(k): v for k, v in found.items()}

    async def known_hashes(
        self, agent_id: AgentId, user_id: UserId | None, among: Collection[str] | None = None
    ) -> set[tuple[Scope, str]]:
        return await self._reader.run(
            lambda c: fact_reads.known_hashes(c, agent_id, user_id, among)
        )

    async def update_fact(self, fact: Fact, vector: Vector | None, expected_version: int) -> Fact:
        return await self._writer.run(
            lambda c: facts.update_fact(c, fact, vector, expected_version)
        )

    async def list_facts(self, query: FactQuery) -> list[Fact]:
        return await self._reader.run(lambda c: fact_reads.list_facts(c, query, self._parse))

    async def count_facts(self, key: ScopeKey) -> int:
        return await self._reader.run(lambda c: fact_reads.count_facts(c, key))

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        return await self._reader.run(
            lambda c: fact_reads.recent_facts(c, visibility, since, limit, self._parse)
        )

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        ranked = await self._searcher.run(
            lambda c: semantic.semantic_ranking(c, self._index, vector, visibility, limit, space)
        )
        if self._index.unsaved and (self._saving is None or self._saving.done()):
            self._saving = asyncio.create_task(self._save_vector_files())
        return ranked

    async def _save_vector_files(self) -> None:
        """Write the partitions a search read from the rows to files, after the search.

        A cache: any failure leaves the rows to be read again next time, never an error.
        """
        with suppress(StoreError, OSError):
            snaps = await self._searcher.run(lambda c: self._index.snapshots())
            for snap in snaps:
                await self._writer.run(partial(vector_files.adopt, folder=self._folder, snap=snap))

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        return await self._reader.run(lambda c: keyword.keyword_ranking(c, text, visibility, limit))

    async def record_access(self, ids: Sequence[FactId], now: datetime) -> None:
        await self._writer.run(lambda c: facts.record_access(c, ids, now))

    async def delete_facts(self, ids: Sequence[FactId]) -> int:
        return await self._writer.run(lambda c: facts.delete_facts(c, ids))

    async def reembed_facts(self, space: EmbeddingSpace, vectors: Mapping[FactId, Vector]) -> None:
        await self._writer.run(lambda c: facts.reembed_facts(c, space, vectors))
