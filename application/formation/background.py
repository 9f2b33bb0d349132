"""Work that runs off the caller's path: tracked, never silently lost, drained on close."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from eden_memory.domain.error_summary import summary

log = logging.getLogger("eden_memory.background")


class BackgroundTasks:
    """Keeps a reference to every task (asyncio only keeps weak ones) and logs failures."""

    def __init__(self, on_error: Callable[[BaseException], None] | None = None) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._on_error = on_error
        self.failures: list[BaseException] = []

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            # The messages stay unformed and are picked up by a later trigger.
            log.warning("background task %s failed: %s", task.get_name(), summary(error))
            self.failures.append(error)
            if self._on_error is not None:
                self._on_error(error)

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def drain(self) -> None:
        """Wait until every task started so far (and any they start) has finished."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
