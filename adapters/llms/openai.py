"""Structured generation with OpenAI: the Responses API, or Chat Completions for compatibles.

``api="responses"`` (the default) is OpenAI's current API; ``api="chat"`` speaks
``/chat/completions`` for OpenAI-compatible servers (vLLM, Ollama, LiteLLM, llama-cpp-python,
Azure-style gateways) that only offer that one, asking for the schema in the way the server
accepts (``schema_mode``, see ``openai_chat``). Every call sends the strict, portable schema
of ``answer_schema`` and a temperature (0 by default: a memory should not depend on a dice
roll), and checks the answer before validating it, so a refusal, a truncation and malformed
JSON each fail with their own message; a truncated answer is asked once more with more room.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal, TypeVar

from eden_memory.adapters.answer_schema import strict_schema
from eden_memory.adapters.llms.openai_chat import (
    SCHEMA_MODES,
    SchemaMode,
    answer_text,
    schema_request,
)
from eden_memory.adapters.openai_answers import ChatAnswer, MessageItem, ResponsesAnswer
from eden_memory.adapters.openai_common import (
    DEFAULT_KEY_ENV,
    CallSite,
    answered,
    openai_client,
    provider_label,
)
from eden_memory.adapters.providers_common import short, validated
from eden_memory.adapters.truncation import truncated, with_more_room
from eden_memory.adapters.wrappers.retry import RetryPolicy
from eden_memory.domain.errors import ConfigurationError, InvalidLLMOutputError
from eden_memory.ports.llm import LLMRequest, LLMResult, T

if TYPE_CHECKING:
    from openai import Omit

V = TypeVar("V", int, float)


class OpenAILLM:
    """``LLM`` on OpenAI (or a compatible server), with a deadline and retries per call.

    Settings: ``api`` ("responses" or "chat"); ``schema_mode`` (chat only: "json_schema",
    "json_object" or "tools"); ``temperature`` sent when a request sets none (None: leave it
    to the server, which reasoning models require); ``api_key`` (default: the variable named
    by ``api_key_env``, ``OPENAI_API_KEY``); ``base_url`` for a compatible server;
    ``timeout_seconds`` per attempt; ``max_retries``, ``backoff_base_seconds`` and
    ``backoff_max_seconds`` for 429s, 5xx answers, lost connections and timeouts.
    """

    def __init__(
        self,
        *,
        api: Literal["responses", "chat"] = "responses",
        schema_mode: SchemaMode = "json_schema",
        temperature: float | None = 0.0,
        api_key: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        base_url: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 3,
        backoff_base_seconds: float = 0.5,
        backoff_max_seconds: float = 20.0,
    ) -> None:
        _check(api, schema_mode)
        self._api = api
        self._mode = schema_mode
        self._temperature = temperature
        self._provider = provider_label(base_url)
        self._site = CallSite(self._provider, api_key_env, api, schema_mode)
        self._timeout = timeout_seconds
        self._retry = RetryPolicy(max_retries, backoff_base_seconds, backoff_max_seconds)
        self._client = openai_client(
            "OpenAI LLM",
            api_key=api_key,
            api_key_env=api_key_env,
            base_url=base_url,
            timeout_seconds=timeout_seconds,
        )

    async def aclose(self) -> None:
        """Close the HTTP connections (the container calls this on shutdown)."""
        await self._client.close()

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        return await with_more_room(
            request, lambda asked: self._retry.run(lambda: self._attempt(asked, schema))
        )

    async def _attempt(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        if self._api == "responses":
            return await self._via_responses(request, schema)
        return await self._via_chat(request, schema)

    def _temperature_of(self, request: LLMRequest) -> float | Omit:
        if request.temperature is not None:
            return request.temperature
        if fixed_temperature(request.model):
            return _given(None)  # OpenAI's reasoning models refuse any temperature but their own
        return _given(self._temperature)

    async def _via_responses(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        call = self._client.responses.with_raw_response.create(
            model=request.model,
            instructions=request.system,
            input=request.prompt,
            text={
                "format": {
                    "type": "json_schema",
                    "name": schema.__name__,
                    "schema": strict_schema(schema),
                    "strict": True,
                }
            },
            max_output_tokens=_given(request.max_output_tokens),
            temperature=self._temperature_of(request),
            store=False,  # memories are personal data: nothing kept on OpenAI's side
        )
        answer, _ = await answered(call, ResponsesAnswer, self._timeout, self._site)
        text = self._final_text(answer, request)
        value = validated(text, schema, self._provider, request.max_answer_chars)
        return LLMResult(value, answer.model or request.model, *answer.tokens())

    def _final_text(self, answer: ResponsesAnswer, request: LLMRequest) -> str:
        """The final answer's text, after ruling out truncation and refusal."""
        if answer.status == "incomplete":
            details = answer.incomplete_details
            reason = details.reason if details else None
            if reason == "max_output_tokens":
                raise truncated(self._provider, request)
            raise InvalidLLMOutputError(f"{self._provider} left the answer incomplete ({reason})")
        texts: list[str] = []
        for item in answer.output:
            if not isinstance(item, MessageItem) or item.phase not in (None, "final_answer"):
                continue
            for content in item.content:
                if content.type == "refusal":
                    raise InvalidLLMOutputError(
                        f"{self._provider} refused to answer: {short(content.refusal)}"
                    )
                texts.append(content.text or "")
        return "".join(texts)

    async def _via_chat(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        fields = schema_request(self._mode, schema)
        call = self._client.chat.completions.with_raw_response.create(
            model=request.model,
            messages=[
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.prompt},
            ],
            max_completion_tokens=_given(request.max_output_tokens),
            temperature=self._temperature_of(request),
            # As sent, not retyped by the SDK: json_object's ``schema`` is not in its types.
            extra_body=fields,
        )
        answer, _ = await answered(call, ChatAnswer, self._timeout, self._site)
        text = answer_text(answer, request, self._provider)
        value = validated(text, schema, self._provider, request.max_answer_chars)
        return LLMResult(value, answer.model or request.model, *answer.tokens())


def _check(api: str, schema_mode: str) -> None:
    if api not in ("responses", "chat"):
        raise ConfigurationError(f"OpenAILLM api must be 'responses' or 'chat', got {api!r}")
    if schema_mode not in SCHEMA_MODES:
        raise ConfigurationError(
            f"OpenAILLM schema_mode must be one of {', '.join(SCHEMA_MODES)}, got {schema_mode!r}"
        )
    if api == "responses" and schema_mode != "json_schema":
        raise ConfigurationError(
            f"schema mode {schema_mode} needs the chat API: set EDEN_MEMORY_OPENAI_API=chat"
        )


_REASONING_MODEL = re.compile(r"(?:^|/)(?:o\d|gpt-5)(?:$|[-.])")


def fixed_temperature(model: str) -> bool:
    """Whether ``model`` is one of OpenAI's reasoning models (o1, o3, o4-mini, gpt-5...),
    which refuse a temperature; ``openai/o3`` as gateways name it counts too."""
    return _REASONING_MODEL.search(model.lower()) is not None


def _given(value: V | None) -> V | Omit:
    """Leave a setting out of the request when the caller left it unset."""
    from openai import omit

    return omit if value is None else value
