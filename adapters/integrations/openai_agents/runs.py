"""Which runs an ``EdenSession`` recorded, so that ``record(result)`` does not record them again.

A run is known by its context (the SDK hands the same ``RunContextWrapper`` to a session
that asks for it and to the result); the note is forgotten with the run's context.
"""

from __future__ import annotations

import weakref
from functools import partial
from typing import Any

from eden_memory.application.conversation import Conversation

_Key = tuple[str, str]


class RecordedRuns:
    """Conversations whose session recorded each live run."""

    def __init__(self) -> None:
        self._runs: dict[int, tuple[weakref.ref[Any], set[_Key]]] = {}

    def add(self, run: object, conversation: Conversation) -> None:
        """Note that a session recorded ``run``'s items for ``conversation``."""
        entry = self._runs.get(id(run))
        if entry is None or entry[0]() is not run:
            entry = (weakref.ref(run, partial(self._forget, id(run))), set())
            self._runs[id(run)] = entry
        entry[1].add(_key(conversation))

    def holds(self, run: object, conversation: Conversation) -> bool:
        """Whether a session recorded ``run``'s items for ``conversation``."""
        entry = self._runs.get(id(run))
        return entry is not None and entry[0]() is run and _key(conversation) in entry[1]

    def _forget(self, key: int, gone: weakref.ref[Any]) -> None:
        entry = self._runs.get(key)
        if entry is not None and entry[0] is gone:
            del self._runs[key]

    def __len__(self) -> int:
        return len(self._runs)


def _key(conversation: Conversation) -> _Key:
    return (conversation.agent_id, conversation.session_id)


RECORDED = RecordedRuns()
