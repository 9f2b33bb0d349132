"""A provider on this machine gets a long timeout and one call at a time; cloud keeps its own."""

from __future__ import annotations

import asyncio
import time

import pytest

from eden_memory.config import EdenMemoryConfig, is_local_url
from eden_memory.container import Container, shutdown
from eden_memory.container.running import resolved
from tests.providers import openai_wire
from tests.providers.schemas import GOOD, Facts, request
from tests.providers.standin import Reply, StandIn


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8080/v1", True),
        ("http://localhost:11434/v1", True),
        ("http://[::1]:8080/v1", True),
        ("http://127.8.0.1/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://192.168.1.20:8080/v1", False),
        (None, False),
    ],
)
def test_a_loopback_url_is_local(url: str | None, local: bool) -> None:
    assert is_local_url(url) is local


def test_cloud_providers_keep_a_minute_and_no_cap() -> None:
    config = EdenMemoryConfig(llm_provider="openai")

    assert (config.llm_timeout("openai"), config.llm_concurrency()) == (60.0, None)


def test_a_local_server_gets_ten_minutes_and_one_call_at_a_time() -> None:
    config = EdenMemoryConfig(llm_provider="openai", openai_base_url="http://127.0.0.1:8080/v1")

    assert (config.llm_timeout("openai"), config.llm_concurrency()) == (600.0, 1)


def test_explicit_settings_win_over_the_local_defaults() -> None:
    config = EdenMemoryConfig(
        llm_provider="openai",
        openai_base_url="http://127.0.0.1:8080/v1",
        llm_timeout_seconds=90,
        llm_max_concurrency=2,
    )

    assert (config.llm_timeout("openai"), config.llm_concurrency()) == (90.0, 2)


def test_one_local_role_caps_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    config = EdenMemoryConfig(
        llm_provider="gemini",
        llm_provider_fast="openai",
        openai_base_url="http://localhost:8080/v1",
    )

    assert config.llm_concurrency() == 1
    assert config.llm_timeout("gemini") == 60.0


@pytest.mark.parametrize(("value", "sent"), [("default", None), ("0.3", 0.3), ("0", 0.0)])
def test_the_temperature_variable_takes_a_number_or_default(
    value: str, sent: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDEN_MEMORY_LLM_TEMPERATURE", value)

    assert EdenMemoryConfig().llm_temperature_value() == sent


async def test_every_role_shares_one_call_at_a_time_on_a_local_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    slow = Reply(200, openai_wire.chat_body(GOOD), delay_seconds=0.4)
    with StandIn(openai_wire.respond, openai_wire.authorize) as server:
        server.queue(slow, slow)
        config = EdenMemoryConfig(
            store="memory",
            embedder="fake",
            llm_provider="openai",
            openai_api="chat",
            openai_base_url=f"{server.url}/v1",
        )
        container = Container(config=config)
        try:
            fast = await resolved(container.llm_fast())
            reflection = await resolved(container.llm_reflection_free())
            began = time.monotonic()
            await asyncio.gather(
                fast.generate(request("local"), Facts), reflection.generate(request("local"), Facts)
            )
            took = time.monotonic() - began
        finally:
            await shutdown(container)

    assert took >= 0.8  # one after the other, never both at once
