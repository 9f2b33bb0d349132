"""Sync calls into an async memory: run each coroutine on the event loop the memory lives on.

A ``MemoryService`` belongs to one event loop: its background formations are tasks of that
loop, and some clients (MongoDB's) cannot move to another. So a sync call (``agent.invoke``,
``store.put``) is not run on a loop of its own (``asyncio.run`` would cancel the formations
it started, and break such clients): it is sent to the memory's loop, and waited for.

That works from any thread but the loop's own: a sync call there blocks the very loop it
would wait for. It is refused, saying what to do instead.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from types import TracebackType
from typing import Any, TypeVar

from eden_memory.domain.errors import ConfigurationError

T = TypeVar("T")
Work = Callable[[], Coroutine[Any, Any, T]]

ON_ITS_LOOP = (
    "a sync call on the thread of the memory's own event loop would block the loop it waits "
    "for: use the async call (ainvoke, astream, aput, asearch), run the sync one in another "
    "thread (await asyncio.to_thread(agent.invoke, ...)), or open the memory on a "
    "MemoryThread"
)


def running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class LoopBridge:
    """The loop the memory runs on: given, or the one running where the bridge is made."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop or running_loop()

    def run(self, work: Work[T]) -> T:
        """Run ``work()`` on the memory's loop from a sync caller, and wait for it."""
        home = self._home()
        if running_loop() is home:
            raise ConfigurationError(ON_ITS_LOOP)
        return asyncio.run_coroutine_threadsafe(work(), home).result()

    async def arun(self, work: Work[T]) -> T:
        """Await ``work()``: here when this is the memory's loop (or none was named), else
        on the memory's loop."""
        if self.loop is None or self.loop is running_loop():
            return await work()
        home = self._home()
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work(), home))

    def _home(self) -> asyncio.AbstractEventLoop:
        if self.loop is None:
            raise ConfigurationError(
                "a sync call needs the event loop the memory runs on: make this object inside "
                "that loop (in async code), pass loop=..., or open the memory on a MemoryThread"
            )
        if self.loop.is_closed() or not self.loop.is_running():
            raise ConfigurationError("the memory's event loop is not running (closed?)")
        return self.loop


class MemoryThread:
    """An event loop on a thread of its own, for a sync host: the memory opens on it, and sync
    calls hop to it (``loop``)::

        with MemoryThread() as thread:
            memory = thread.open(open_memory(store="memory.db"))
            store = EdenStore(memory, loop=thread.loop)
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="eden-memory-loop", daemon=True
        )
        self._thread.start()
        self._opened = AsyncExitStack()

    def open(self, opener: AbstractAsyncContextManager[T]) -> T:
        """Enter an async context manager (``open_memory(...)``) on the loop; ``close`` exits it."""
        return self.run(lambda: self._opened.enter_async_context(opener))

    def run(self, work: Work[T]) -> T:
        """Run ``work()`` on the loop and wait for it."""
        return asyncio.run_coroutine_threadsafe(work(), self.loop).result()

    def close(self) -> None:
        """Exit what ``open`` entered (the memory waits for its background work), then stop."""
        if self.loop.is_closed():
            return
        try:
            self.run(self._opened.aclose)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join()
            self.loop.close()

    def __enter__(self) -> MemoryThread:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


__all__ = ["LoopBridge", "MemoryThread", "running_loop"]
