"""What the application needs from the outside world, as ``typing.Protocol`` classes.

One small protocol per concern; adapters implement them, contract suites in ``tests/contract``
hold every adapter (fakes included) to the same behaviour.
"""

from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder, Embeddings
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult
from eden_memory.ports.stores import (
    BufferStore,
    FactQuery,
    FactRanking,
    FactReads,
    FactRecords,
    FactStore,
    NoteRecords,
    PendingMessage,
    RevisionStore,
    SessionRecords,
    SessionStore,
    Stores,
)

__all__ = [
    "LLM",
    "BufferStore",
    "Clock",
    "Embedder",
    "Embeddings",
    "FactQuery",
    "FactRanking",
    "FactReads",
    "FactRecords",
    "FactStore",
    "LLMRequest",
    "LLMResult",
    "NoteRecords",
    "PendingMessage",
    "RevisionStore",
    "SessionRecords",
    "SessionStore",
    "Stores",
]
