"""Cross-cutting wrappers: each implements a port around another adapter of that port.

Concurrency limits live here once instead of inside every adapter (retry is one
``RetryPolicy`` each provider adapter runs its attempts through; usage is metered by the
service itself, ``application.metering``); the composition root stacks them, for example
``LimitedLLM(GeminiLLM(...), gemini_semaphore)``.
"""

from eden_memory.adapters.wrappers.limits import LimitedEmbedder, LimitedLLM
from eden_memory.adapters.wrappers.query_cache import QueryVectorCache
from eden_memory.adapters.wrappers.retry import RetryPolicy, is_retryable

__all__ = [
    "LimitedEmbedder",
    "LimitedLLM",
    "QueryVectorCache",
    "RetryPolicy",
    "is_retryable",
]
