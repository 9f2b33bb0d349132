"""The decorators that run a concern's method on one of the store's workers.

A concern class (``SqliteFacts``, ...) writes each port method once, as a plain method taking
the worker's connection after ``self``, and holding its SQL. ``@on_writer``, ``@on_reader``
or ``@on_searcher`` turn it into the port's async method, run on that worker's thread
(``handle``): the signature the port declares is the method's own, less the connection, for
the type checker and for ``inspect`` alike.
"""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import Callable, Coroutine
from functools import wraps
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

if TYPE_CHECKING:
    from eden_memory.adapters.stores.sqlite.connection import Worker
    from eden_memory.adapters.stores.sqlite.handle import SqliteHandle

P = ParamSpec("P")
T = TypeVar("T")


class OnHandle(Protocol):
    """A concern: it reaches the store through its handle."""

    _handle: SqliteHandle


C = TypeVar("C", bound=OnHandle)
Method = Callable[Concatenate[C, sqlite3.Connection, P], T]
PortMethod = Callable[Concatenate[C, P], Coroutine[Any, Any, T]]


def _on(
    worker: Callable[[SqliteHandle], Worker],
) -> Callable[[Method[C, P, T]], PortMethod[C, P, T]]:
    def decorate(method: Method[C, P, T]) -> PortMethod[C, P, T]:
        @wraps(method)
        async def run(self: C, /, *args: P.args, **kwargs: P.kwargs) -> T:
            return await worker(self._handle).run(lambda conn: method(self, conn, *args, **kwargs))

        setattr(run, "__signature__", _without_connection(inspect.signature(method)))  # noqa: B010
        return run

    return decorate


def _without_connection(signature: inspect.Signature) -> inspect.Signature:
    """What callers see (``inspect``, mocks with a spec): the method's own, less ``conn``."""
    self, _, *rest = signature.parameters.values()
    return signature.replace(parameters=[self, *rest])


on_writer = _on(lambda handle: handle.writer)  # every write: one at a time, BEGIN IMMEDIATE
on_reader = _on(lambda handle: handle.reader)  # plain reads and keyword search
on_searcher = _on(lambda handle: handle.searcher)  # semantic search: the vector index
