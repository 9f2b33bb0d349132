"""Environment variables alone switch providers: no code change between deployments."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from eden_memory.config import EdenMemoryConfig
from eden_memory.container import Container, running
from eden_memory.container.running import resolved
from eden_memory.domain.errors import ProviderError
from eden_memory.ports.llm import LLMRequest
from tests.container.conftest import NOWHERE


class Answer(BaseModel):
    text: str


REQUEST = LLMRequest(model="m", system="s", prompt="p", purpose="test")


@pytest.fixture(autouse=True)
def local_only(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "STORE": "memory",
        "EMBEDDER": "fake",
        "OPENAI_BASE_URL": NOWHERE,
        "GEMINI_BASE_URL": NOWHERE,
        "PROVIDER_MAX_RETRIES": "0",
    }.items():
        monkeypatch.setenv(f"EDEN_MEMORY_{name}", value)


@pytest.mark.parametrize(("provider", "label"), [("gemini", "Gemini"), ("openai", "OpenAI")])
async def test_the_llm_provider_variable_picks_the_provider(
    monkeypatch: pytest.MonkeyPatch, provider: str, label: str
) -> None:
    monkeypatch.setenv("EDEN_MEMORY_LLM_PROVIDER", provider)
    container = Container()  # settings from the environment only
    async with running(container):
        fast = await resolved(container.llm_fast())
        with pytest.raises(ProviderError, match=label):  # the call went to that provider
            await fast.generate(REQUEST, Answer)


async def test_a_role_variable_overrides_the_provider_for_that_role(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EDEN_MEMORY_LLM_PROVIDER", "gemini")
    monkeypatch.setenv("EDEN_MEMORY_LLM_PROVIDER_REFLECTION_PREMIUM", "openai")
    container = Container()
    async with running(container):
        premium = await resolved(container.llm_reflection_premium())
        with pytest.raises(ProviderError, match="OpenAI"):
            await premium.generate(REQUEST, Answer)


def test_nested_behaviour_settings_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EDEN_MEMORY_MEMORY__MODELS__FAST", "gpt-5-mini")
    monkeypatch.setenv("EDEN_MEMORY_MEMORY__SEARCH__RRF_K", "30")
    config = EdenMemoryConfig()
    assert config.memory.models.fast == "gpt-5-mini"
    assert config.memory.search.rrf_k == 30


def test_one_variable_changes_one_number_of_a_nested_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EDEN_MEMORY_MEMORY__CONSOLIDATION__THRESHOLDS__AGENT", "12")
    thresholds = EdenMemoryConfig().memory.consolidation.thresholds
    assert (thresholds.agent, thresholds.user, thresholds.session) == (12, 4, 4)
