"""The retry settings every provider adapter takes, read once from the configuration."""

from __future__ import annotations

from typing import TypedDict

from eden_memory.config import EdenMemoryConfig


class RetrySettings(TypedDict):
    max_retries: int
    backoff_base_seconds: float
    backoff_max_seconds: float


def retries(config: EdenMemoryConfig) -> RetrySettings:
    return RetrySettings(
        max_retries=config.provider_max_retries,
        backoff_base_seconds=config.provider_backoff_base_seconds,
        backoff_max_seconds=config.provider_backoff_max_seconds,
    )
