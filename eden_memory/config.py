"""Settings read from the environment (``EDEN_MEMORY_*``) or passed by the host.

Adapter choices are flat (``EDEN_MEMORY_STORE=mongo``, ``EDEN_MEMORY_LLM_PROVIDER=gemini``);
behaviour settings are nested with a double underscore
(``EDEN_MEMORY_MEMORY__SEARCH__RRF_K=60``). Nothing is read at import time: build
``EdenMemoryConfig()`` when you need it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict

from eden_memory.domain.settings import MemorySettings

StoreKind = Literal["embedded", "memory", "mongo"]
EmbedderKind = Literal["auto", "local", "keyword", "fake", "openai", "gemini"]
LLMProvider = Literal["none", "openai", "gemini"]


class EdenMemoryConfig(BaseSettings):
    """Everything configurable: which adapters, and how the memory behaves (``memory``)."""

    model_config = SettingsConfigDict(
        env_prefix="EDEN_MEMORY_",
        env_nested_delimiter="__",
        extra="ignore",
        frozen=True,
    )

    store: StoreKind = "embedded"
    # The embedded store's file; created with its folder on first use.
    store_path: Path = Path(".eden-memory/memory.db")
    mongodb_uri: str | None = None
    mongodb_database: str = "eden_memory"
    # auto: the local model when its extra is installed, else the keyword embedder (warned).
    embedder: EmbedderKind = "auto"
    embedding_model: str | None = None
    embedding_dimensions: int | None = None
    # none: no model provider; formation needs an LLM given in code (tests, the demo).
    llm_provider: LLMProvider = "none"
    memory: MemorySettings = MemorySettings()
