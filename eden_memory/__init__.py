"""eden-memory: long-term memory for LLM agents.

Reflections (agent, user, session) are consolidated into short blobs that ride in every
prompt; facts are found again by hybrid search. See ``docs/`` for the concepts.
"""

from typing import TYPE_CHECKING

from eden_memory.domain.errors import (
    ConfigurationError,
    ConflictError,
    EdenMemoryError,
    EmbeddingSpaceError,
    InvalidInputError,
    InvalidLLMOutputError,
    InvalidMemoryTextError,
    MissingExtraError,
    NotFoundError,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimitError,
    ProviderTimeoutError,
    SessionUsersError,
    StaleEditError,
    StoreCorruptedError,
    StoreError,
    StoreUnavailableError,
)
from eden_memory.domain.models import Fact, Message, Reflection, Role

if TYPE_CHECKING:  # the real types for type checkers; loaded lazily at run time
    from eden_memory.application.conversation import Conversation, new_message
    from eden_memory.application.search import SearchMode
    from eden_memory.application.service import MemoryService
    from eden_memory.config import EdenMemoryConfig
    from eden_memory.factory import open_memory
from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import AgentMemoryConfig, Scope, ScopeKey
from eden_memory.domain.settings import MemorySettings

__version__ = "0.1.0"

# Loaded on first use, so importing the domain alone stays light.
_LAZY = {
    "MemoryService": "eden_memory.application.service",
    "Conversation": "eden_memory.application.conversation",
    "new_message": "eden_memory.application.conversation",
    "SearchMode": "eden_memory.application.search",
    "EdenMemoryConfig": "eden_memory.config",
    "open_memory": "eden_memory.factory",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'eden_memory' has no attribute {name!r}")


__all__ = [  # noqa: RUF022 - grouped: values, services, errors
    "AgentMemoryConfig",
    "AgentSettings",
    "Conversation",
    "EdenMemoryConfig",
    "Fact",
    "MemoryService",
    "Message",
    "Reflection",
    "Role",
    "SearchMode",
    "new_message",
    "open_memory",
    "ConfigurationError",
    "ConflictError",
    "EdenMemoryError",
    "EmbeddingSpaceError",
    "InvalidInputError",
    "InvalidLLMOutputError",
    "InvalidMemoryTextError",
    "MemorySettings",
    "MissingExtraError",
    "NotFoundError",
    "ProviderAuthError",
    "ProviderError",
    "ProviderRateLimitError",
    "ProviderTimeoutError",
    "Scope",
    "ScopeKey",
    "SessionProfile",
    "SessionUsersError",
    "StaleEditError",
    "StoreCorruptedError",
    "StoreError",
    "StoreUnavailableError",
    "__version__",
]
