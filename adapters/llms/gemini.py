"""Structured generation with Gemini (``google-genai``): JSON mode with a JSON schema.

The schema goes as ``response_json_schema`` (JSON Schema), in the strict form every provider
is sent (``answer_schema``): the older ``response_schema`` field is an OpenAPI subset that
refuses ``additionalProperties``. The temperature is 0 unless a request or the adapter
says otherwise; an answer cut at ``MAX_TOKENS`` is asked once more with more room.

The SDK is asked for the body as it came (``should_return_http_response``), which
``gemini_answers`` checks: the SDK would parse the answer's text before it can be bounded,
and read a body of the wrong shape as an empty answer. The adapter looks at the reasons
first (a blocked prompt, a safety stop, the token limit), then validates the text itself,
to say exactly what was wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eden_memory.adapters.answer_schema import strict_schema
from eden_memory.adapters.gemini_answers import GenerateAnswer
from eden_memory.adapters.gemini_common import PROVIDER, gemini_client, guarded, received
from eden_memory.adapters.provider_answers import Received, read_answer
from eden_memory.adapters.providers_common import short, validated
from eden_memory.adapters.truncation import truncated, with_more_room
from eden_memory.adapters.wrappers.retry import RetryPolicy
from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.ports.llm import LLMRequest, LLMResult, T

if TYPE_CHECKING:
    from google.genai import types

# Finish reasons that mean "the answer is complete"; MAX_TOKENS means truncated, every
# other one (SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, ...) a refusal.
_COMPLETE = {None, "STOP", "FINISH_REASON_UNSPECIFIED"}


class GeminiLLM:
    """``LLM`` on the Gemini Developer API, with a deadline and retries per call.

    Settings: ``temperature`` sent when a request sets none (None: the model's default);
    ``api_key`` (default: ``GOOGLE_API_KEY``, then ``GEMINI_API_KEY``);
    ``base_url`` to reach another endpoint (a proxy, or a stand-in in tests);
    ``timeout_seconds`` per attempt; ``max_retries``, ``backoff_base_seconds`` and
    ``backoff_max_seconds`` for 429s, 5xx answers, lost connections and timeouts.
    """

    def __init__(
        self,
        *,
        temperature: float | None = 0.0,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 3,
        backoff_base_seconds: float = 0.5,
        backoff_max_seconds: float = 20.0,
    ) -> None:
        self._temperature = temperature
        self._timeout = timeout_seconds
        self._retry = RetryPolicy(max_retries, backoff_base_seconds, backoff_max_seconds)
        self._client = gemini_client(
            "Gemini LLM", api_key=api_key, base_url=base_url, timeout_seconds=timeout_seconds
        )

    async def aclose(self) -> None:
        """Close the HTTP connections (the container calls this on shutdown)."""
        await self._client.aio.aclose()

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        return await with_more_room(
            request, lambda asked: self._retry.run(lambda: self._attempt(asked, schema))
        )

    async def _attempt(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        temperature = request.temperature if request.temperature is not None else self._temperature
        call = self._client.aio.models.generate_content(
            model=request.model,
            contents=request.prompt,
            config=_config(request, schema, temperature),
        )
        response = await guarded(call, self._timeout)
        body = received(response.sdk_http_response)
        answer = read_answer(GenerateAnswer, body)
        value = _value(answer, body, request, schema)
        return LLMResult(value, answer.model_version or request.model, *answer.tokens())


def _config(
    request: LLMRequest, schema: type[T], temperature: float | None
) -> types.GenerateContentConfig:
    from google.genai import types

    return types.GenerateContentConfig(
        should_return_http_response=True,  # read by ``gemini_answers``, not by the SDK
        system_instruction=request.system,
        response_mime_type="application/json",
        response_json_schema=strict_schema(schema),
        max_output_tokens=request.max_output_tokens,
        temperature=temperature,
    )


def _value(answer: GenerateAnswer, body: Received, request: LLMRequest, schema: type[T]) -> T:
    """The answer as ``schema``, or the reason there is none."""
    feedback = answer.prompt_feedback
    if feedback is not None and feedback.block_reason is not None:
        raise InvalidLLMOutputError(
            f"{PROVIDER} refused the prompt (blocked: {short(feedback.block_reason)})"
        )
    if not answer.candidates:
        raise body.fault("no candidates, and no reason why")
    candidate = answer.candidates[0]
    reason = candidate.finish_reason
    if reason == "MAX_TOKENS":
        raise truncated(PROVIDER, request)
    if reason not in _COMPLETE:
        raise InvalidLLMOutputError(
            f"{PROVIDER} refused or stopped the answer (finish reason {short(reason)})"
        )
    text = candidate.text()
    if text is None:
        raise body.fault(
            "an empty answer (no text in candidates.0.content.parts)", InvalidLLMOutputError
        )
    return validated(text, schema, PROVIDER, request.max_answer_chars)
