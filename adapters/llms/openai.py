"""Structured generation with OpenAI: the Responses API, or Chat Completions for compatibles.

``api="responses"`` (the default) is OpenAI's current API; ``api="chat"`` speaks
``/chat/completions`` for OpenAI-compatible servers (vLLM, Ollama, LiteLLM, Azure-style
gateways) that only offer that one. Both send the pydantic schema as a strict JSON schema
and check the answer before validating it, so a refusal, a truncation and malformed JSON
each fail with their own message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeVar

from pydantic import ValidationError

from eden_memory.adapters.openai_common import (
    DEFAULT_KEY_ENV,
    guarded,
    openai_client,
    provider_label,
)
from eden_memory.adapters.providers_common import invalid_output, validated
from eden_memory.adapters.wrappers.retry import RetryPolicy
from eden_memory.domain.errors import ConfigurationError, InvalidLLMOutputError
from eden_memory.ports.llm import LLMRequest, LLMResult, T

if TYPE_CHECKING:
    from openai import Omit
    from openai.types.responses import ParsedResponse

V = TypeVar("V", int, float)


class OpenAILLM:
    """``LLM`` on OpenAI (or a compatible server), with a deadline and retries per call.

    Settings: ``api`` ("responses" or "chat"); ``api_key`` (default: the variable named by
    ``api_key_env``, ``OPENAI_API_KEY``); ``base_url`` for a compatible server;
    ``timeout_seconds`` per attempt; ``max_retries``, ``backoff_base_seconds`` and
    ``backoff_max_seconds`` for 429s, 5xx answers, lost connections and timeouts.
    """

    def __init__(
        self,
        *,
        api: Literal["responses", "chat"] = "responses",
        api_key: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        base_url: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 3,
        backoff_base_seconds: float = 0.5,
        backoff_max_seconds: float = 20.0,
    ) -> None:
        if api not in ("responses", "chat"):
            raise ConfigurationError(f"OpenAILLM api must be 'responses' or 'chat', got {api!r}")
        self._api = api
        self._provider = provider_label(base_url)
        self._key_env = api_key_env
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
        return await self._retry.run(lambda: self._attempt(request, schema))

    async def _attempt(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        call = self._via_responses if self._api == "responses" else self._via_chat
        return await guarded(call(request, schema), self._timeout, self._provider, self._key_env)

    async def _via_responses(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        response = await self._client.responses.parse(
            model=request.model,
            instructions=request.system,
            input=request.prompt,
            text_format=schema,
            parse_as=None,  # sends the schema; we validate after the refusal/truncation checks
            max_output_tokens=_given(request.max_output_tokens),
            temperature=_given(request.temperature),
            store=False,  # memories are personal data: nothing kept on OpenAI's side
        )
        value = validated(self._final_text(response), schema, self._provider)
        usage = response.usage
        return LLMResult(
            value=value,
            model=response.model or request.model,
            input_tokens=usage.input_tokens if usage else 0,
            output_tokens=usage.output_tokens if usage else 0,
        )

    def _final_text(self, response: ParsedResponse[None]) -> str:
        """The final answer's text, after ruling out truncation and refusal."""
        if response.status == "incomplete":
            details = response.incomplete_details
            reason = details.reason if details else None
            if reason == "max_output_tokens":
                raise InvalidLLMOutputError(
                    f"{self._provider} truncated the answer at max_output_tokens"
                )
            raise InvalidLLMOutputError(f"{self._provider} left the answer incomplete ({reason})")
        texts: list[str] = []
        for item in response.output:
            if item.type != "message" or item.phase not in (None, "final_answer"):
                continue
            for content in item.content:
                if content.type == "refusal":
                    raise InvalidLLMOutputError(
                        f"{self._provider} refused to answer: {content.refusal}"
                    )
                texts.append(content.text)
        return "".join(texts)

    async def _via_chat(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        import openai

        try:
            completion = await self._client.chat.completions.parse(
                model=request.model,
                messages=[
                    {"role": "system", "content": request.system},
                    {"role": "user", "content": request.prompt},
                ],
                response_format=schema,
                max_completion_tokens=_given(request.max_output_tokens),
                temperature=_given(request.temperature),
            )
        except openai.LengthFinishReasonError as error:
            raise InvalidLLMOutputError(
                f"{self._provider} truncated the answer at the token limit"
            ) from error
        except openai.ContentFilterFinishReasonError as error:
            raise InvalidLLMOutputError(
                f"{self._provider} refused to answer: its content filter stopped the answer"
            ) from error
        except ValidationError as error:
            raise invalid_output(error, schema, self._provider) from error
        if not completion.choices:
            raise InvalidLLMOutputError(f"{self._provider} returned no choices")
        message = completion.choices[0].message
        if message.refusal:
            raise InvalidLLMOutputError(f"{self._provider} refused to answer: {message.refusal}")
        value = message.parsed
        if value is None:
            value = validated(message.content, schema, self._provider)
        usage = completion.usage
        return LLMResult(
            value=value,
            model=completion.model or request.model,
            input_tokens=usage.prompt_tokens if usage else 0,
            output_tokens=usage.completion_tokens if usage else 0,
        )


def _given(value: V | None) -> V | Omit:
    """Leave a setting out of the request when the caller left it unset."""
    from openai import omit

    return omit if value is None else value
