"""The vector logs a search found lacking, held for the writer to mend.

The searcher's index notes a partition it had to read from the fact rows (its log is to be
built) or whose log is mostly dead rows (to be compacted); the store's vector log writer takes
the notes after its next write, and on close. This is the one thing the two threads share, so
it is behind a lock; the search never writes nor schedules a write.
"""

from __future__ import annotations

import threading

from eden_memory.adapters.stores.sqlite.codec import KeyCols


class MendWants:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        # None: build the partition's log; else the rows the search found in it, to compact.
        self._wants: dict[KeyCols, int | None] = {}

    def add(self, key: KeyCols, seen: int | None) -> None:
        with self._lock:
            self._wants[key] = seen

    def clear(self) -> None:
        with self._lock:
            self._wants = {}

    def take(self) -> list[tuple[KeyCols, int | None]]:
        """Every want noted since the last take, each partition once."""
        with self._lock:
            out, self._wants = list(self._wants.items()), {}
        return out
