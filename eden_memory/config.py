"""Settings read from the environment (``EDEN_MEMORY_*``) or passed by the host.

Nested values use a double underscore: ``EDEN_MEMORY_MEMORY__SEARCH__RRF_K=60``.
Nothing is read at import time; build ``EdenMemoryConfig()`` when you need it.
"""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from eden_memory.domain.settings import MemorySettings


class EdenMemoryConfig(BaseSettings):
    """Everything configurable: the behaviour (``memory``) and, later, adapter choices."""

    model_config = SettingsConfigDict(
        env_prefix="EDEN_MEMORY_",
        env_nested_delimiter="__",
        extra="ignore",
        frozen=True,
    )

    memory: MemorySettings = MemorySettings()
