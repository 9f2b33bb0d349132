"""GeminiLLM against the Gemini stand-in (generateContent, JSON mode with a schema)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import pytest

from eden_memory.adapters.llms.gemini import GeminiLLM
from eden_memory.adapters.providers_common import ProviderUnavailableError
from eden_memory.domain.errors import (
    InvalidLLMOutputError,
    MissingExtraError,
    ProviderAuthError,
    ProviderRateLimitError,
    ProviderTimeoutError,
)
from tests.providers import gemini_wire
from tests.providers.conftest import FAST
from tests.providers.schemas import EXPECTED, GOOD, MALFORMED, OFF_SCHEMA, Facts, request
from tests.providers.standin import Reply, StandIn

MODEL = "gemini-3-flash-preview"
MakeLLM = Callable[..., GeminiLLM]


def answer(text: str | None, finish_reason: str = "STOP") -> Reply:
    return Reply(200, gemini_wire.generate_body(text, finish_reason=finish_reason))


@pytest.fixture
async def make_llm(gemini_server: StandIn) -> AsyncIterator[MakeLLM]:
    made: list[GeminiLLM] = []

    def make(**settings: Any) -> GeminiLLM:
        options = {"api_key": "test-key", "base_url": gemini_server.url, **FAST}
        llm = GeminiLLM(**(options | settings))
        made.append(llm)
        return llm

    yield make
    for llm in made:
        await llm.aclose()


async def test_the_request_carries_model_system_prompt_json_mode_and_schema(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(GOOD))
    await make_llm().generate(request(MODEL, max_output_tokens=300, temperature=0.2), Facts)

    sent = gemini_server.requests[0]
    assert sent.path.endswith(f"/models/{MODEL}:generateContent")
    assert sent.headers["x-goog-api-key"] == "test-key"
    assert sent.body["systemInstruction"]["parts"] == [{"text": "Extract the facts."}]
    assert sent.body["contents"][0]["parts"] == [{"text": "user: I moved to Lyon last year."}]
    config = sent.body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"]["required"] == ["facts", "complete"]
    assert config["responseJsonSchema"]["additionalProperties"] is False
    assert "responseSchema" not in config  # the OpenAPI subset refuses additionalProperties
    assert (config["maxOutputTokens"], config["temperature"]) == (300, 0.2)


async def test_an_unset_limit_is_left_to_the_provider_and_the_temperature_is_zero(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(GOOD))
    await make_llm().generate(request(MODEL), Facts)

    config = gemini_server.requests[0].body["generationConfig"]
    assert "maxOutputTokens" not in config
    assert config["temperature"] == 0.0


async def test_an_adapter_without_a_temperature_leaves_it_to_the_model(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(GOOD))
    await make_llm(temperature=None).generate(request(MODEL), Facts)

    assert "temperature" not in gemini_server.requests[0].body["generationConfig"]


async def test_an_answer_cut_at_max_tokens_is_asked_again_with_twice_the_room(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(MALFORMED, "MAX_TOKENS"), answer(GOOD))

    result = await make_llm().generate(request(MODEL, max_output_tokens=50), Facts)

    assert result.value == EXPECTED
    limits = [r.body["generationConfig"]["maxOutputTokens"] for r in gemini_server.requests]
    assert limits == [50, 100]


async def test_an_answer_cut_twice_is_reported_with_both_limits(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(MALFORMED, "MAX_TOKENS"), answer(MALFORMED, "MAX_TOKENS"))

    with pytest.raises(InvalidLLMOutputError, match="max_output_tokens=100") as caught:
        await make_llm().generate(request(MODEL, max_output_tokens=50), Facts)
    assert "asked twice: with 50 and then more tokens" in caught.value.__notes__
    assert len(gemini_server.requests) == 2


async def test_an_answer_cut_at_the_model_s_own_limit_is_reported_not_retried(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(MALFORMED, "MAX_TOKENS"))

    with pytest.raises(InvalidLLMOutputError, match="its own token limit"):
        await make_llm().generate(request(MODEL), Facts)
    assert len(gemini_server.requests) == 1


async def test_a_valid_answer_comes_back_with_thinking_counted_as_output(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(GOOD))

    result = await make_llm().generate(request(MODEL), Facts)

    assert result.value == EXPECTED
    assert result.model == gemini_wire.MODEL_VERSION
    assert (result.input_tokens, result.output_tokens) == (21, 12 + 25)


async def test_a_rate_limit_is_waited_out_and_retried(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(gemini_wire.rate_limited(), answer(GOOD))

    result = await make_llm().generate(request(MODEL), Facts)

    assert result.value == EXPECTED
    assert len(gemini_server.requests) == 2


async def test_a_lasting_rate_limit_is_a_rate_limit_error_with_gemini_s_retry_delay(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(*[gemini_wire.rate_limited("7s")] * 3)

    with pytest.raises(ProviderRateLimitError, match="429") as caught:
        await make_llm().generate(request(MODEL), Facts)

    assert getattr(caught.value, "retry_after_seconds", None) == 7.0
    assert len(gemini_server.requests) == 3


@pytest.mark.parametrize("failure", [gemini_wire.server_error, gemini_wire.overloaded])
async def test_server_errors_are_retried_until_the_retries_run_out(
    failure: Callable[[], Reply], make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(*[failure()] * 3)

    with pytest.raises(ProviderUnavailableError, match="failed on its side"):
        await make_llm().generate(request(MODEL), Facts)
    assert len(gemini_server.requests) == 3


async def test_one_server_error_then_success_is_a_success(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(gemini_wire.overloaded(), answer(GOOD))

    assert (await make_llm().generate(request(MODEL), Facts)).value == EXPECTED


@pytest.mark.parametrize(
    ("reply", "complaint"),
    [
        (answer(MALFORMED), "malformed JSON"),
        (answer(OFF_SCHEMA), "violates the schema Facts"),
        (answer(None), "empty answer"),
        (answer(None, "SAFETY"), "refused or stopped the answer .finish reason SAFETY"),
        (answer(GOOD, "RECITATION"), "finish reason RECITATION"),
        (Reply(200, gemini_wire.blocked_prompt_body("SAFETY")), "refused the prompt .blocked"),
    ],
    ids=[
        "malformed",
        "off-schema",
        "empty",
        "safety",
        "recitation",
        "prompt-blocked",
    ],
)
async def test_an_unusable_answer_is_invalid_output_that_says_why_and_is_not_retried(
    reply: Reply, complaint: str, make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(reply)

    with pytest.raises(InvalidLLMOutputError, match=complaint):
        await make_llm().generate(request(MODEL, max_output_tokens=5), Facts)
    assert len(gemini_server.requests) == 1


async def test_an_answer_longer_than_the_request_allows_is_refused_unparsed(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    gemini_server.queue(answer(GOOD))
    bounded = replace(request(MODEL), max_answer_chars=len(GOOD) - 1)

    with pytest.raises(InvalidLLMOutputError, match="characters, over the bound"):
        await make_llm().generate(bounded, Facts)


async def test_a_rejected_key_is_an_auth_error_naming_the_variables(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    llm = make_llm(api_key=gemini_wire.WRONG_KEY)

    with pytest.raises(ProviderAuthError, match=r"API key not valid.*GEMINI_API_KEY"):
        await llm.generate(request(MODEL), Facts)
    assert len(gemini_server.requests) == 1


async def test_a_key_from_the_environment_is_used(
    make_llm: MakeLLM, gemini_server: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "env-key")
    gemini_server.queue(answer(GOOD))

    await make_llm(api_key=None).generate(request(MODEL), Facts)

    assert gemini_server.requests[0].headers["x-goog-api-key"] == "env-key"


def test_a_missing_key_is_an_auth_error_naming_both_variables() -> None:
    with pytest.raises(ProviderAuthError, match="GOOGLE_API_KEY or GEMINI_API_KEY"):
        GeminiLLM()


async def test_an_answer_slower_than_the_timeout_is_a_timeout_error_after_retries(
    make_llm: MakeLLM, gemini_server: StandIn
) -> None:
    slow = Reply(200, gemini_wire.generate_body(GOOD), delay_seconds=1.0)
    gemini_server.queue(slow, slow)

    with pytest.raises(ProviderTimeoutError) as raised:
        await make_llm(timeout_seconds=0.2, max_retries=1).generate(request(MODEL), Facts)
    # The adapter counts its attempts: on a loaded machine the second may time out before
    # its bytes reach the stand-in, so the server's count is not the measure.
    assert "gave up after 2 attempts" in getattr(raised.value, "__notes__", [])
    assert 1 <= len(gemini_server.requests) <= 2


def test_without_the_sdk_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "google.genai", None)

    with pytest.raises(MissingExtraError, match=r"eden-memory\[gemini\]"):
        GeminiLLM(api_key="test-key")
