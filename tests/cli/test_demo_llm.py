"""``demo --llm``: a provider that is not configured is a clear error before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from eden_memory.demo.run import run_demo
from eden_memory.domain.errors import ConfigurationError


async def test_a_provider_that_is_not_configured_names_the_setting_and_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EDEN_MEMORY_LLM_PROVIDER", raising=False)
    monkeypatch.setenv("EDEN_MEMORY_EMBEDDER", "keyword")

    with pytest.raises(ConfigurationError, match=r"EDEN_MEMORY_LLM_PROVIDER=openai.*local-llm"):
        await run_demo(tmp_path / "demo.db", Console(file=None, quiet=True), "openai")

    assert not (tmp_path / "demo.db").exists()
