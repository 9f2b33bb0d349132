"""``open_sqlite``: the whole store in one SQLite file, as one small class per concern.

Zero setup: give it a path (folders are created) and it makes or upgrades the file. Several
processes may open the same file; claims, compare-and-set and counters hold across them
(see ``sessions`` and ``revisions``). Keyword relevance is FTS5's BM25 (``keyword``);
vector search is exact, over in-memory matrices kept in step with the file (``vectors``).
The six concerns (``facts``, ``ranking``, ``sessions``, ``buffers``, ``sqlite_revisions``,
``sqlite_contexts``)
share one ``SqliteHandle``; none inherits or imports another.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from eden_memory.adapters.stores.sqlite.buffers.sqlite_buffers import SqliteBuffers
from eden_memory.adapters.stores.sqlite.connection import BUSY_TIMEOUT_SECONDS
from eden_memory.adapters.stores.sqlite.facts.sqlite_facts import SqliteFacts
from eden_memory.adapters.stores.sqlite.handle import SqliteHandle
from eden_memory.adapters.stores.sqlite.ranking.sqlite_ranking import SqliteRanking
from eden_memory.adapters.stores.sqlite.sessions.sqlite_sessions import SqliteSessions
from eden_memory.adapters.stores.sqlite.sqlite_contexts import SqliteContexts
from eden_memory.adapters.stores.sqlite.sqlite_revisions import SqliteRevisions
from eden_memory.adapters.stores.sqlite.vectors.scan import Precision
from eden_memory.ports.stores import Stores


async def open_sqlite(
    path: str | Path,
    *,
    busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    vector_precision: Precision = "auto",
) -> Stores:
    """Every store port on the file at ``path`` (created or upgraded); ``close`` it when done.

    ``busy_timeout``: seconds a write waits for another process's lock before failing
    with ``StoreUnavailableError``. ``vector_precision``: how the search keeps vectors in
    memory; ``half`` (float16 and SimSIMD, with exact float32 re-scoring of the close
    calls: half the memory, faster) or ``single`` (float32 and BLAS). ``auto`` picks
    ``half`` when SimSIMD is installed and its kernel passes a soundness check, which
    may switch off SimSIMD's half-adding kernels for the whole process (``half_kernels``).
    Either way the ranking and scores are those of an exact float32 scan. Opening runs in
    a thread: it may wait for another process's lock.
    """
    handle = await asyncio.to_thread(
        SqliteHandle,
        path,
        busy_timeout=busy_timeout,
        vector_precision=vector_precision,
    )

    async def close() -> None:
        await asyncio.to_thread(handle.close)

    facts, sessions, buffers = SqliteFacts(handle), SqliteSessions(handle), SqliteBuffers(handle)
    return Stores(
        facts=facts,
        fact_reads=facts,
        fact_records=facts,
        ranking=SqliteRanking(handle),
        sessions=sessions,
        session_records=sessions,
        buffers=buffers,
        note_records=buffers,
        revisions=SqliteRevisions(handle),
        contexts=SqliteContexts(handle),
        close=close,
    )
