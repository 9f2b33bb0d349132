"""The in-memory store: every store port, exactly, in one process's memory."""

from eden_memory.adapters.stores.memory.store import InMemoryStore
from eden_memory.ports.stores import Stores


def memory_stores() -> Stores:
    """A new, empty in-memory store, by concern (nothing persists, nothing to close)."""
    return Stores.of(InMemoryStore())


__all__ = ["InMemoryStore", "memory_stores"]
