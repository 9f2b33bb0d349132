"""Failures on demand: the next call of a store method raises, to test recovery."""

from __future__ import annotations

import inspect
from collections import deque
from typing import Any

from eden_memory.adapters.stores.memory.state import StateHolder
from eden_memory.ports.stores import Stores


def fail_next(stores: Stores, method_name: str, error: Exception, *, after: bool = False) -> None:
    """Make the next call of ``method_name`` (on whichever in-memory part has it) raise
    ``error``; calls queue up.

    With ``after=True`` the call does its work first and then raises, like a write whose
    acknowledgement was lost: the caller sees a failure although the store changed.
    """
    parts = (
        stores.facts,
        stores.ranking,
        stores.sessions,
        stores.buffers,
        stores.revisions,
        stores.contexts,
    )
    for part in parts:
        original = getattr(type(part), method_name, None)
        if isinstance(part, StateHolder) and inspect.iscoroutinefunction(original):
            _queue(part, method_name, error, after)
            return
    raise ValueError(f"no in-memory store part has an async method {method_name!r}")


_FAULTS = "_eden_faults"


def _queue(part: StateHolder, method_name: str, error: Exception, after: bool) -> None:
    faults: dict[str, deque[tuple[Exception, bool]]] = part.__dict__.setdefault(_FAULTS, {})
    faults.setdefault(method_name, deque()).append((error, after))
    setattr(part, method_name, _failing(part, method_name, faults))


def _failing(part: StateHolder, method_name: str, faults: dict[str, Any]) -> Any:
    async def failing(*args: Any, **kwargs: Any) -> Any:
        queue = faults[method_name]
        error, after = queue.popleft()
        if not queue:  # back to the real method for the calls after this one
            del faults[method_name]
            delattr(part, method_name)
        if after:
            await getattr(type(part), method_name)(part, *args, **kwargs)
        raise error

    return failing
