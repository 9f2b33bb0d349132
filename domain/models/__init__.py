"""The values the memory system holds: facts, reflections, blobs, messages, session state."""

from eden_memory.domain.models.consolidated import ConsolidatedMemory
from eden_memory.domain.models.facts import Fact, FactRevision, FactStatus
from eden_memory.domain.models.messages import Message, Role
from eden_memory.domain.models.reflections import Reflection, ReflectionRevision
from eden_memory.domain.models.sessions import Claim, SessionState

__all__ = [
    "Claim",
    "ConsolidatedMemory",
    "Fact",
    "FactRevision",
    "FactStatus",
    "Message",
    "Reflection",
    "ReflectionRevision",
    "Role",
    "SessionState",
]
