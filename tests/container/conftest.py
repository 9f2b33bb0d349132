"""Shared pieces of the container tests: dummy keys, settings in a temporary folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eden_memory.config import EdenMemoryConfig

# A port where nothing listens: a provider call fails at once, and never leaves the machine.
NOWHERE = "http://127.0.0.1:9"
Settings = Callable[..., EdenMemoryConfig]


@pytest.fixture(autouse=True)
def dummy_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys that satisfy the adapters' checks; base URLs keep every call local."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    monkeypatch.setenv("GOOGLE_API_KEY", "test-not-a-key")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """``EdenMemoryConfig`` with local-only defaults; keyword arguments override them."""

    def build(**changes: Any) -> EdenMemoryConfig:
        values: dict[str, Any] = {
            "store": "memory",
            "store_path": tmp_path / "memory.db",
            "mongodb_uri": "mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=200",
            "embedder": "fake",
            "openai_base_url": NOWHERE,
            "gemini_base_url": NOWHERE,
            "provider_max_retries": 0,
            **changes,
        }
        return EdenMemoryConfig(**values)

    return build
