"""A cache bounded in size and in age, so a long-running process holds only what is hot.

Least recently used entries go first when the cache is full; entries older than the
time-to-live are dropped at every call, oldest first, each in O(1) — so an hour of
thousands of one-prompt sessions leaves the entries of the last few minutes, not of the hour.
Time is passed in (``now``), so the policy is tested without a clock.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from datetime import datetime, timedelta
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``max_entries`` values, none stored ``ttl`` ago or earlier."""

    def __init__(self, max_entries: int, ttl: timedelta) -> None:
        self.max_entries = max_entries
        self.ttl = ttl
        self._by_use: OrderedDict[K, V] = OrderedDict()  # least recently used first
        self._by_age: OrderedDict[K, datetime] = OrderedDict()  # oldest stored first

    def get(self, key: K, now: datetime) -> V | None:
        self.evict_expired(now)
        if key not in self._by_use:
            return None
        self._by_use.move_to_end(key)
        return self._by_use[key]

    def put(self, key: K, value: V, now: datetime) -> None:
        self.evict_expired(now)
        self.discard(key)
        if self.max_entries <= 0 or self.ttl <= timedelta(0):
            return  # caching is off
        self._by_use[key] = value
        self._by_age[key] = now
        while len(self._by_use) > self.max_entries:
            oldest, _ = self._by_use.popitem(last=False)
            del self._by_age[oldest]

    def evict_expired(self, now: datetime) -> None:
        # Entries are in the order they were stored, which is nearly the order of their times:
        # a context built concurrently may carry an earlier time than the one before it, and
        # a clock set back does the same. Such an entry leaves a little late, never served
        # stale (readers check its age).
        while self._by_age:
            key, stored_at = next(iter(self._by_age.items()))
            if now - stored_at < self.ttl:
                return
            self.discard(key)

    def discard(self, key: K) -> None:
        if key in self._by_use:
            del self._by_use[key], self._by_age[key]

    def oldest(self) -> datetime | None:
        """When the oldest entry held was stored (None when empty)."""
        return min(self._by_age.values(), default=None)

    def __len__(self) -> int:
        return len(self._by_use)
