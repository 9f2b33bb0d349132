"""The in-memory store: every store port, exactly, in one process's memory."""

from eden_memory.adapters.stores.memory.store import InMemoryStore

__all__ = ["InMemoryStore"]
