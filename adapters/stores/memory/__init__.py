"""The in-memory store: every store port, exactly, in one process's memory.

One small class per concern (``InMemoryFacts``, ``InMemoryRanking``, ``InMemorySessions``,
``InMemoryBuffers``, ``InMemoryRevisions``, ``InMemoryContexts``) over one shared
``MemoryState``; ``memory_stores()`` bundles them as a ``Stores``. It passes the same
contract suites as the real stores:

* Semantic search is exact cosine over the visible facts of the current space.
* Keyword search is BM25 (k1 = 1.2, b = 0.75) over lowercase Unicode word tokens of the
  visible facts. ``text_score_threshold`` is 0.0: any matching term counts, because BM25
  scores scale with the logarithm of the corpus size and no absolute floor fits a
  three-fact test store and a large one alike (see ``ranking.TEXT_SCORE_THRESHOLD``).
* Calls are atomic: each yields to the event loop once on entry, then never awaits, so of
  N concurrent claimers exactly one wins and compare-and-set is exact. One event loop
  only; it is not thread-safe.
* ``fail_next(stores, method, error)`` makes the next call of a method raise, to test recovery.
"""

from eden_memory.adapters.stores.memory.buffers import InMemoryBuffers
from eden_memory.adapters.stores.memory.contexts import InMemoryContexts
from eden_memory.adapters.stores.memory.facts import InMemoryFacts
from eden_memory.adapters.stores.memory.faults import fail_next
from eden_memory.adapters.stores.memory.ranking import TEXT_SCORE_THRESHOLD, InMemoryRanking
from eden_memory.adapters.stores.memory.revisions import InMemoryRevisions
from eden_memory.adapters.stores.memory.sessions import InMemorySessions
from eden_memory.adapters.stores.memory.state import MemoryState
from eden_memory.ports.stores import Stores


def memory_stores() -> Stores:
    """A new, empty in-memory store, by concern (nothing persists, nothing to close)."""
    state = MemoryState()

    async def close() -> None:
        """Nothing to release."""

    facts, sessions, buffers = InMemoryFacts(state), InMemorySessions(state), InMemoryBuffers(state)
    return Stores(
        facts=facts,
        fact_reads=facts,
        fact_records=facts,
        ranking=InMemoryRanking(state),
        sessions=sessions,
        session_records=sessions,
        buffers=buffers,
        note_records=buffers,
        revisions=InMemoryRevisions(state),
        contexts=InMemoryContexts(state),
        close=close,
    )


__all__ = [
    "TEXT_SCORE_THRESHOLD",
    "InMemoryBuffers",
    "InMemoryContexts",
    "InMemoryFacts",
    "InMemoryRanking",
    "InMemoryRevisions",
    "InMemorySessions",
    "fail_next",
    "memory_stores",
]
