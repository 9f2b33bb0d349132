"""Cross-cutting wrappers: each implements a port around another adapter of that port.

Concurrency limits and usage accounting live here once instead of inside every adapter (retry
is one ``RetryPolicy`` each provider adapter runs its attempts through); the composition root
stacks them, for example
``MeteredLLM(LimitedLLM(GeminiLLM(...), gemini_semaphore), meter)``.
"""

from eden_memory.adapters.wrappers.limits import LimitedEmbedder, LimitedLLM
from eden_memory.adapters.wrappers.metering import (
    MeteredEmbedder,
    MeteredLLM,
    UsageMeter,
    UsageScope,
)
from eden_memory.adapters.wrappers.retry import RetryPolicy, is_retryable
from eden_memory.adapters.wrappers.usage import EmbeddingTally, LLMTally, UsageSnapshot

__all__ = [
    "EmbeddingTally",
    "LLMTally",
    "LimitedEmbedder",
    "LimitedLLM",
    "MeteredEmbedder",
    "MeteredLLM",
    "RetryPolicy",
    "UsageMeter",
    "UsageScope",
    "UsageSnapshot",
    "is_retryable",
]
