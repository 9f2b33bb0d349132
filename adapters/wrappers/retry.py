"""The one retry policy of eden-memory: exponential backoff with full jitter.

Every provider adapter runs its attempts through ``RetryPolicy.run``, so there is a single
retry loop to read, tune and test.
Only transient failures are retried (see ``is_retryable``); an invalid answer, a rejected key
or a bad request fails at once, because asking again would fail the same way.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from eden_memory.domain.errors import (
    EdenMemoryError,
    ProviderRateLimitError,
    ProviderTimeoutError,
    StoreUnavailableError,
)

R = TypeVar("R")

_TRANSIENT = (ProviderRateLimitError, ProviderTimeoutError, StoreUnavailableError)


def is_retryable(error: BaseException) -> bool:
    """True for failures that may succeed when tried again.

    Rate limits, timeouts and an unavailable store always are; any other error opts in
    with a true ``retryable`` attribute (``ProviderUnavailableError``: a 5xx or a lost
    connection).
    """
    return isinstance(error, _TRANSIENT) or getattr(error, "retryable", False) is True


def backoff_ceiling(retry: int, base_seconds: float, max_seconds: float) -> float:
    """The longest wait before retry number ``retry`` (0-based): base * 2**retry, capped."""
    return min(max_seconds, base_seconds * 2.0**retry)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry a transient failure.

    The wait before retry ``n`` is uniform in ``[0, min(max, base * 2**n)]`` ("full
    jitter"), which spreads the retries of many workers hit by the same rate limit instead
    of having them return in lockstep. A provider's own hint (an error's
    ``retry_after_seconds``, from a Retry-After header) raises the wait up to that hint,
    still capped by ``backoff_max_seconds``. ``sleep`` and ``random`` are injectable so
    tests run instantly and deterministically.
    """

    max_retries: int = 3
    backoff_base_seconds: float = 0.5
    backoff_max_seconds: float = 20.0
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep, compare=False)
    random: Callable[[], float] = field(default=random.random, compare=False)

    def __post_init__(self) -> None:
        if self.max_retries < 0 or self.backoff_base_seconds < 0 or self.backoff_max_seconds < 0:
            raise ValueError("retry settings must not be negative")

    def delay(self, retry: int, error: BaseException | None = None) -> float:
        """Seconds to wait before retry number ``retry`` (0-based) after ``error``."""
        ceiling = backoff_ceiling(retry, self.backoff_base_seconds, self.backoff_max_seconds)
        wait = self.random() * ceiling
        hint = getattr(error, "retry_after_seconds", None)
        if isinstance(hint, int | float) and hint > wait:
            wait = min(float(hint), self.backoff_max_seconds)
        return wait

    async def run(self, attempt: Callable[[], Awaitable[R]]) -> R:
        """Await ``attempt()`` until it succeeds, fails for good, or the retries run out.

        The error that ends the loop is raised as it is, with a note saying how many
        attempts were made.
        """
        retry = 0
        while True:
            try:
                return await attempt()
            except EdenMemoryError as error:
                if retry >= self.max_retries or not is_retryable(error):
                    if retry:
                        error.add_note(f"gave up after {retry + 1} attempts")
                    raise
                await self.sleep(self.delay(retry, error))
                retry += 1
