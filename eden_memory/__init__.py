"""eden-memory: long-term memory for LLM agents.

Reflections (agent, user, session) are consolidated into short blobs that ride in every
prompt; facts are found again by hybrid search. See ``docs/`` for the concepts.
"""

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
    StoreError,
    StoreUnavailableError,
)
from eden_memory.domain.scopes import AgentMemoryConfig, Scope, ScopeKey, SessionIdentity
from eden_memory.domain.settings import MemorySettings

__version__ = "0.1.0"

__all__ = [
    "AgentMemoryConfig",
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
    "SessionIdentity",
    "StoreError",
    "StoreUnavailableError",
    "__version__",
]
