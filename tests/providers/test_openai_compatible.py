"""OpenAILLM against compatible servers: schema modes, and refusals that say what to change.

The bodies of the llama-cpp-python replies are the ones its server (0.3.36) sent to our
adapter: a 404 for the Responses API, and a 500 for a ``json_schema`` response format.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from eden_memory.adapters.llms.openai import OpenAILLM
from eden_memory.application.schemas import FactDecisions
from eden_memory.domain.errors import ConfigurationError, ProviderError
from tests.providers import openai_wire
from tests.providers.conftest import FAST
from tests.providers.schemas import EXPECTED, GOOD, Facts, request
from tests.providers.standin import Reply, StandIn

MakeLLM = Callable[..., OpenAILLM]
LLAMA_404 = Reply(404, {"detail": "Not Found"})
LLAMA_500_JSON_SCHEMA = Reply(
    500,
    openai_wire.error_body(
        "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
        "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
        "'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"/venv/lib/python3.11/"
        'site-packages/llama_cpp/server/app.py", line 376, in create_chat_completion\n    '
        "POST /v1/chat/completions",
        "internal_server_error",
        None,
    ),
)


@pytest.fixture
async def make_llm(openai_server: StandIn) -> AsyncIterator[MakeLLM]:
    made: list[OpenAILLM] = []

    def make(**settings: Any) -> OpenAILLM:
        options = {"api_key": "dummy", "base_url": f"{openai_server.url}/v1", **FAST}
        llm = OpenAILLM(**(options | settings))
        made.append(llm)
        return llm

    yield make
    for llm in made:
        await llm.aclose()


def tool_call_body(arguments: str) -> dict[str, Any]:
    """A chat completion whose answer is a call of the schema's function (llama-cpp-python's)."""
    body = openai_wire.chat_body(None, finish_reason="tool_calls")
    body["choices"][0]["message"]["tool_calls"] = [
        {
            "id": "call__0_Facts_cmpl-1",
            "type": "function",
            "function": {"name": "Facts", "arguments": arguments},
        }
    ]
    return body


async def test_json_object_mode_sends_the_schema_inside_the_response_format(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(Reply(200, openai_wire.chat_body(GOOD)))

    result = await make_llm(api="chat", schema_mode="json_object").generate(request("local"), Facts)

    assert result.value == EXPECTED
    format_ = openai_server.requests[0].body["response_format"]
    assert format_["type"] == "json_object"
    assert format_["schema"]["required"] == ["facts", "complete"]
    assert "tools" not in openai_server.requests[0].body


async def test_tools_mode_asks_for_one_forced_function_call_and_reads_its_arguments(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(Reply(200, tool_call_body(GOOD)))

    result = await make_llm(api="chat", schema_mode="tools").generate(request("local"), Facts)

    assert result.value == EXPECTED
    sent = openai_server.requests[0].body
    assert "response_format" not in sent
    (tool,) = sent["tools"]
    assert tool["function"]["name"] == "Facts"
    assert tool["function"]["parameters"]["additionalProperties"] is False
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "Facts"}}


def test_a_schema_mode_other_than_json_schema_needs_the_chat_api() -> None:
    with pytest.raises(ConfigurationError, match="EDEN_MEMORY_OPENAI_API=chat"):
        OpenAILLM(api_key="dummy", schema_mode="json_object")


def test_an_unknown_schema_mode_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="json_schema, json_object, tools"):
        OpenAILLM(api_key="dummy", api="chat", schema_mode="grammar")  # type: ignore[arg-type]


async def test_a_server_without_the_responses_api_is_told_to_use_chat_once(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(LLAMA_404)

    with pytest.raises(ProviderError, match="EDEN_MEMORY_OPENAI_API=chat") as caught:
        await make_llm().generate(request("local"), Facts)
    assert "no Responses API (404: Not Found)" in str(caught.value)
    assert len(openai_server.requests) == 1


async def test_a_missing_model_on_the_responses_api_is_not_mistaken_for_a_missing_api(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    message = "The model `gpt-9` does not exist or you do not have access to it."
    openai_server.queue(
        Reply(404, openai_wire.error_body(message, "invalid_request_error", "model_not_found"))
    )

    with pytest.raises(ProviderError, match="MODELS__FAST") as caught:
        await make_llm().generate(request("gpt-9"), Facts)
    assert "OPENAI_API=chat" not in str(caught.value)


async def test_a_500_saying_the_schema_format_is_invalid_is_not_retried_and_names_the_mode(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(LLAMA_500_JSON_SCHEMA)

    with pytest.raises(ProviderError, match="EDEN_MEMORY_OPENAI_SCHEMA_MODE") as caught:
        await make_llm(api="chat").generate(request("local"), Facts)
    assert "json_object" in str(caught.value)
    assert not getattr(caught.value, "retryable", False)
    assert len(openai_server.requests) == 1


async def test_a_refused_temperature_names_the_setting_that_leaves_it_out(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    message = "Unsupported value: 'temperature' does not support 0 with this model."
    openai_server.queue(
        Reply(400, openai_wire.error_body(message, "invalid_request_error", "unsupported_value"))
    )

    with pytest.raises(ProviderError, match="EDEN_MEMORY_LLM_TEMPERATURE=default"):
        await make_llm().generate(request("gpt-5"), Facts)
    assert len(openai_server.requests) == 1


async def test_without_a_temperature_none_is_sent(
    make_llm: MakeLLM, openai_server: StandIn
) -> None:
    openai_server.queue(Reply(200, openai_wire.chat_body(GOOD)))

    await make_llm(api="chat", temperature=None).generate(request("local"), Facts)

    assert "temperature" not in openai_server.requests[0].body


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "tools"])
async def test_a_schema_with_defaults_is_sent_without_them_and_fully_required(
    mode: str, make_llm: MakeLLM, openai_server: StandIn
) -> None:
    answer = '{"decisions": [{"fact": 1, "action": "ADD"}]}'  # a lenient server's answer
    reply = tool_call_body(answer) if mode == "tools" else openai_wire.chat_body(answer)
    openai_server.queue(Reply(200, reply))

    result = await make_llm(api="chat", schema_mode=mode).generate(request("local"), FactDecisions)

    sent = json.dumps(openai_server.requests[0].body)
    assert '"default"' not in sent
    assert '"required": ["fact", "action", "target_id", "text", "reason"]' in sent
    assert result.value.decisions[0].reason == ""  # pydantic fills what the server left out
