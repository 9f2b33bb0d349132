"""Stand-in servers for the provider tests, and settings that make retries instant."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.providers import gemini_wire, openai_wire
from tests.providers.standin import StandIn

# Retries in milliseconds, so a test of three attempts still runs in no time.
FAST: dict[str, Any] = {
    "timeout_seconds": 5.0,
    "max_retries": 2,
    "backoff_base_seconds": 0.001,
    "backoff_max_seconds": 0.004,
}

KEY_VARIABLES = ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY")


@pytest.fixture(autouse=True)
def no_provider_keys(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests pass keys explicitly; a developer's real keys must not change their outcome."""
    if request.node.get_closest_marker("integration"):
        return
    for name in KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def openai_server() -> Iterator[StandIn]:
    with StandIn(openai_wire.respond, openai_wire.authorize) as server:
        yield server


@pytest.fixture
def gemini_server() -> Iterator[StandIn]:
    with StandIn(gemini_wire.respond, gemini_wire.authorize) as server:
        yield server
