"""The shared retry policy: full-jitter delays, what is retried, and the retrying wrappers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.providers_common import ProviderUnavailableError, RateLimitedError
from eden_memory.adapters.wrappers import RetryPolicy
from eden_memory.adapters.wrappers.retry import backoff_ceiling, is_retryable
from eden_memory.domain.errors import (
    InvalidLLMOutputError,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimitError,
    ProviderTimeoutError,
    StoreUnavailableError,
)


class Sleeps:
    """A sleep that records how long it was asked to wait and returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def policy(sleeps: Sleeps, *, max_retries: int = 3, draw: float = 0.5) -> RetryPolicy:
    return RetryPolicy(max_retries, 1.0, 8.0, sleep=sleeps, random=lambda: draw)


def test_the_ceiling_doubles_with_each_retry_up_to_the_maximum() -> None:
    assert [backoff_ceiling(n, 1.0, 8.0) for n in range(6)] == [1, 2, 4, 8, 8, 8]


@given(
    retry=st.integers(min_value=0, max_value=40),
    draw=st.floats(min_value=0.0, max_value=1.0),
    base=st.floats(min_value=0.0, max_value=10.0),
    cap=st.floats(min_value=0.0, max_value=60.0),
)
def test_a_delay_is_anywhere_between_zero_and_the_ceiling(
    retry: int, draw: float, base: float, cap: float
) -> None:
    delay = RetryPolicy(3, base, cap, random=lambda: draw).delay(retry)

    assert 0.0 <= delay <= backoff_ceiling(retry, base, cap)
    assert delay == pytest.approx(draw * backoff_ceiling(retry, base, cap))


def test_the_provider_s_retry_after_hint_lengthens_the_wait_up_to_the_maximum() -> None:
    never_waits = RetryPolicy(3, 1.0, 8.0, random=lambda: 0.0)

    assert never_waits.delay(0, RateLimitedError("429", retry_after_seconds=3.0)) == 3.0
    assert never_waits.delay(0, RateLimitedError("429", retry_after_seconds=30.0)) == 8.0
    assert never_waits.delay(0, RateLimitedError("429", retry_after_seconds=None)) == 0.0


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        (ProviderRateLimitError("429"), True),
        (ProviderTimeoutError("slow"), True),
        (ProviderUnavailableError("503"), True),
        (StoreUnavailableError("down"), True),
        (ProviderError("400 bad request"), False),
        (ProviderAuthError("401"), False),
        (InvalidLLMOutputError("malformed"), False),
        (ValueError("a bug"), False),
    ],
)
def test_only_transient_failures_are_retryable(error: Exception, retryable: bool) -> None:
    assert is_retryable(error) is retryable


async def test_transient_failures_are_retried_after_growing_jittered_waits() -> None:
    sleeps = Sleeps()
    failures = [ProviderRateLimitError("429"), ProviderUnavailableError("503")]
    attempts: Iterator[Exception | str] = iter([*failures, "done"])

    async def attempt() -> str:
        outcome = next(attempts)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    assert await policy(sleeps).run(attempt) == "done"
    assert sleeps.waits == [0.5, 1.0]  # half of the 1 s and 2 s ceilings


async def test_a_lasting_failure_is_raised_after_the_last_retry_with_a_note() -> None:
    sleeps = Sleeps()
    calls = 0

    async def attempt() -> None:
        nonlocal calls
        calls += 1
        raise ProviderTimeoutError(f"slow #{calls}")

    with pytest.raises(ProviderTimeoutError, match="slow #4") as caught:
        await policy(sleeps, max_retries=3).run(attempt)
    assert calls == 4
    assert len(sleeps.waits) == 3
    assert caught.value.__notes__ == ["gave up after 4 attempts"]


@pytest.mark.parametrize(
    "error", [ProviderAuthError("401"), InvalidLLMOutputError("bad"), RuntimeError("bug")]
)
async def test_a_permanent_failure_is_raised_at_once(error: Exception) -> None:
    sleeps = Sleeps()
    calls = 0

    async def attempt() -> None:
        nonlocal calls
        calls += 1
        raise error

    with pytest.raises(type(error)):
        await policy(sleeps).run(attempt)
    assert (calls, sleeps.waits) == (1, [])


def test_negative_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        RetryPolicy(max_retries=-1)
