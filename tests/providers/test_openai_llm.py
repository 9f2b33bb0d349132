"""OpenAILLM against the OpenAI stand-in: the Responses API and Chat Completions."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any, Literal

import pytest

from eden_memory.adapters.llms.openai import OpenAILLM, fixed_temperature
from eden_memory.adapters.providers_common import ProviderUnavailableError
from eden_memory.domain.errors import (
    InvalidLLMOutputError,
    MissingExtraError,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimitError,
    ProviderTimeoutError,
)
from tests.providers import openai_wire
from tests.providers.conftest import FAST
from tests.providers.schemas import EXPECTED, GOOD, MALFORMED, OFF_SCHEMA, Facts, request
from tests.providers.standin import Reply, StandIn

Api = Literal["responses", "chat"]
APIS: list[Api] = ["responses", "chat"]
PATH = {"responses": "/v1/responses", "chat": "/v1/chat/completions"}
MakeLLM = Callable[..., OpenAILLM]


def answer(api: Api, text: str | None) -> Reply:
    if api == "responses":
        return Reply(200, openai_wire.response_body(text))
    return Reply(200, openai_wire.chat_body(text))


def refusal(api: Api) -> Reply:
    words = "I'm sorry, but I can't help with that."
    if api == "responses":
        return Reply(200, openai_wire.response_body(refusal=words))
    return Reply(200, openai_wire.chat_body(refusal=words))


def truncated(api: Api) -> Reply:
    if api == "responses":
        body = openai_wire.response_body(MALFORMED, incomplete_reason="max_output_tokens")
        return Reply(200, body)
    return Reply(200, openai_wire.chat_body(MALFORMED, finish_reason="length"))


@pytest.fixture
async def make_llm(openai_server: StandIn) -> AsyncIterator[MakeLLM]:
    made: list[OpenAILLM] = []

    def make(api: Api = "responses", **settings: Any) -> OpenAILLM:
        options = {"api_key": "sk-test", "base_url": f"{openai_server.url}/v1", **FAST}
        llm = OpenAILLM(api=api, **(options | settings))
        made.append(llm)
        return llm

    yield make
    for llm in made:
        await llm.aclose()


async def test_the_responses_api_gets_the_model_prompt_and_strict_schema(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(answer("responses", GOOD))
    await make_llm("responses").generate(request("gpt-4.1-mini", max_output_tokens=300), Facts)

    sent = openai_server.requests[0]
    assert sent.path == "/v1/responses"
    assert sent.headers["authorization"] == "Bearer sk-test"
    assert sent.body["model"] == "gpt-4.1-mini"
    assert sent.body["instructions"] == "Extract the facts."
    assert sent.body["input"] == "user: I moved to Lyon last year."
    assert sent.body["max_output_tokens"] == 300
    assert sent.body["temperature"] == 0.0  # structured calls are not left to chance
    assert sent.body["store"] is False
    text_format = sent.body["text"]["format"]
    assert (text_format["type"], text_format["name"], text_format["strict"]) == (
        "json_schema",
        "Facts",
        True,
    )
    assert text_format["schema"]["required"] == ["facts", "complete"]


async def test_chat_completions_get_system_and_user_messages_and_a_response_format(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(answer("chat", GOOD))
    await make_llm("chat").generate(request("local-model", temperature=0.1), Facts)

    sent = openai_server.requests[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.body["model"] == "local-model"
    assert [m["role"] for m in sent.body["messages"]] == ["system", "user"]
    assert sent.body["temperature"] == 0.1
    assert "max_completion_tokens" not in sent.body
    assert sent.body["response_format"]["json_schema"]["name"] == "Facts"
    assert sent.body["response_format"]["json_schema"]["strict"] is True


@pytest.mark.parametrize("api", APIS)
async def test_a_valid_answer_comes_back_validated_with_its_token_usage(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(answer(api, GOOD))

    result = await make_llm(api).generate(request("gpt-4.1-mini"), Facts)

    assert result.value == EXPECTED
    assert result.model == openai_wire.MODEL
    expected_tokens = (36, 87) if api == "responses" else (19, 10)
    assert (result.input_tokens, result.output_tokens) == expected_tokens


@pytest.mark.parametrize("api", APIS)
async def test_a_rate_limit_is_waited_out_and_retried(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(openai_wire.rate_limited(), answer(api, GOOD))

    result = await make_llm(api).generate(request("gpt-4.1-mini"), Facts)

    assert result.value == EXPECTED
    assert openai_server.paths() == [PATH[api], PATH[api]]


@pytest.mark.parametrize("api", APIS)
async def test_server_errors_are_retried_until_the_retries_run_out(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(*[openai_wire.server_error()] * 3)

    with pytest.raises(ProviderUnavailableError, match="500") as caught:
        await make_llm(api).generate(request("gpt-4.1-mini"), Facts)

    assert isinstance(caught.value, ProviderError)
    assert len(openai_server.requests) == 3  # the first attempt and max_retries=2
    assert "gave up after 3 attempts" in caught.value.__notes__


async def test_a_rate_limit_that_outlasts_the_retries_is_a_rate_limit_error(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(*[openai_wire.rate_limited()] * 3)

    with pytest.raises(ProviderRateLimitError, match="429"):
        await make_llm().generate(request("gpt-4.1-mini"), Facts)
    assert len(openai_server.requests) == 3


async def test_an_exhausted_quota_is_not_retried(make_llm: MakeLLM, openai_server: StandIn) -> None:
    openai_server.queue(openai_wire.quota_exhausted())

    with pytest.raises(ProviderError, match="quota") as caught:
        await make_llm().generate(request("gpt-4.1-mini"), Facts)
    assert not isinstance(caught.value, ProviderRateLimitError)
    assert len(openai_server.requests) == 1


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    ("reply", "complaint"),
    [
        (lambda api: answer(api, MALFORMED), "malformed JSON"),
        (lambda api: answer(api, OFF_SCHEMA), "violates the schema Facts"),
        (lambda api: answer(api, None), "empty answer"),
        (refusal, "refused to answer"),
    ],
    ids=["malformed", "off-schema", "empty", "refusal"],
)
async def test_an_unusable_answer_is_invalid_output_that_says_why_and_is_not_retried(
    api: Api,
    reply: Callable[[Api], Reply],
    complaint: str,
    make_llm: MakeLLM,
    openai_server: StandIn,
) -> None:
    openai_server.queue(reply(api))

    with pytest.raises(InvalidLLMOutputError, match=complaint):
        await make_llm(api).generate(request("gpt-4.1-mini", max_output_tokens=5), Facts)
    assert len(openai_server.requests) == 1


@pytest.mark.parametrize("api", APIS)
async def test_an_answer_longer_than_the_request_allows_is_refused_unparsed(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(answer(api, GOOD))
    bounded = replace(request("gpt-4.1-mini"), max_answer_chars=len(GOOD) - 1)

    with pytest.raises(InvalidLLMOutputError, match="characters, over the bound"):
        await make_llm(api).generate(bounded, Facts)


@pytest.mark.parametrize("api", APIS)
async def test_an_answer_cut_at_max_tokens_is_asked_again_with_twice_the_room(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(truncated(api), answer(api, GOOD))

    result = await make_llm(api).generate(request("gpt-4.1-mini", max_output_tokens=40), Facts)

    assert result.value == EXPECTED
    field = "max_output_tokens" if api == "responses" else "max_completion_tokens"
    assert [r.body[field] for r in openai_server.requests] == [40, 80]


@pytest.mark.parametrize("api", APIS)
async def test_an_answer_cut_twice_is_reported_after_two_requests(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(truncated(api), truncated(api))

    with pytest.raises(InvalidLLMOutputError, match="truncated the answer at max_output_tokens=80"):
        await make_llm(api).generate(request("gpt-4.1-mini", max_output_tokens=40), Facts)
    assert len(openai_server.requests) == 2


async def test_an_answer_cut_at_the_server_s_own_limit_says_so_and_is_not_retried(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(truncated("chat"))

    with pytest.raises(InvalidLLMOutputError, match=r"its own token limit.*--n_ctx"):
        await make_llm("chat").generate(request("local-model"), Facts)
    assert len(openai_server.requests) == 1


@pytest.mark.parametrize("api", APIS)
async def test_a_rejected_key_is_an_auth_error_naming_the_variable(
    api: Api, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    llm = make_llm(api, api_key=openai_wire.WRONG_KEY)

    with pytest.raises(ProviderAuthError, match=r"401.*OPENAI_API_KEY"):
        await llm.generate(request("gpt-4.1-mini"), Facts)
    assert len(openai_server.requests) == 1


async def test_the_key_comes_from_the_environment_variable_by_default(
    make_llm: MakeLLM, openai_server: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    openai_server.queue(answer("responses", GOOD))

    await make_llm(api_key=None).generate(request("gpt-4.1-mini"), Facts)

    assert openai_server.requests[0].headers["authorization"] == "Bearer sk-from-env"


def test_a_missing_key_is_an_auth_error_naming_the_variable() -> None:
    with pytest.raises(ProviderAuthError, match="set OPENAI_API_KEY"):
        OpenAILLM()


def test_a_compatible_server_may_name_its_own_key_variable() -> None:
    with pytest.raises(ProviderAuthError, match="set VLLM_API_KEY"):
        OpenAILLM(api="chat", base_url="http://127.0.0.1:1/v1", api_key_env="VLLM_API_KEY")


async def test_an_answer_slower_than_the_timeout_is_a_timeout_error_after_retries(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    slow = Reply(200, openai_wire.response_body(GOOD), delay_seconds=1.0)
    openai_server.queue(slow, slow)

    with pytest.raises(ProviderTimeoutError) as raised:
        await make_llm(timeout_seconds=0.2, max_retries=1).generate(request("gpt-4.1-mini"), Facts)
    # The adapter counts its attempts: on a loaded machine the second may time out before
    # its bytes reach the stand-in, so the server's count is not the measure.
    assert "gave up after 2 attempts" in getattr(raised.value, "__notes__", [])
    assert 1 <= len(openai_server.requests) <= 2


def test_without_the_sdk_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)

    with pytest.raises(MissingExtraError, match=r"eden-memory\[openai\]"):
        OpenAILLM(api_key="sk-test")


@pytest.mark.parametrize("model", ["o3", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.1", "openai/o1"])
async def test_a_reasoning_model_gets_no_temperature_unless_a_request_sets_one(
    make_llm: MakeLLM, openai_server: StandIn, model: str
) -> None:
    openai_server.queue(answer("responses", GOOD), answer("responses", GOOD))
    llm = make_llm("responses")
    await llm.generate(request(model), Facts)
    await llm.generate(request(model, temperature=1.0), Facts)

    assert "temperature" not in openai_server.requests[0].body
    assert openai_server.requests[1].body["temperature"] == 1.0


@pytest.mark.parametrize("model", ["gpt-4.1-mini", "gpt-4o", "qwen2.5-coder-1.5b", "solar-o3x"])
def test_other_models_keep_the_structured_temperature(model: str) -> None:
    assert not fixed_temperature(model)
