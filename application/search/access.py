"""Access tracking, batched: counts gathered in memory and written a batch at a time.

Every search would otherwise cost a write transaction; on the embedded store that write
competes with the next search for the same two cores. Counts are added with the store's
atomic increments, so several processes flushing at once still count every access; a
crash loses at most the unflushed counts (bookkeeping, not memory).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from eden_memory.domain.ids import FactId
from eden_memory.ports.stores import FactReads


class AccessTracker:
    def __init__(self, store: FactReads, max_pending: int = 500) -> None:
        self._store = store
        self._max_pending = max_pending
        self._counts: Counter[FactId] = Counter()
        self._last: datetime | None = None

    def record(self, ids: Sequence[FactId], now: datetime) -> bool:
        """Count one access of each id; True when enough is pending to be worth a flush."""
        self._counts.update(set(ids))
        self._last = now
        return sum(self._counts.values()) >= self._max_pending

    @property
    def pending(self) -> int:
        return sum(self._counts.values())

    async def flush(self) -> None:
        """Write what is pending: one atomic increment per access (ids grouped per round)."""
        counts, last = self._counts, self._last
        self._counts, self._last = Counter(), None
        if last is None:
            return
        try:
            for round_ in range(max(counts.values(), default=0)):
                ids = [fact_id for fact_id, n in counts.items() if n > round_]
                await self._store.record_access(ids, last)
        except BaseException:
            self._counts.update(counts)  # keep them for the next flush
            self._last = self._last or last
            raise
