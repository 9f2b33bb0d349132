"""What the OpenAI and Gemini adapters share: credentials, deadlines, output checks, batches.

Also the two provider errors that the domain hierarchy leaves to adapters: a retryable
``ProviderUnavailableError`` (5xx, lost connection) and a ``RateLimitedError`` that carries
the provider's Retry-After hint to the retry policy.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import ClassVar, TypeVar

from pydantic import BaseModel, ValidationError

from eden_memory.adapters.provider_answers import excerpt
from eden_memory.adapters.wrappers.retry import RetryPolicy
from eden_memory.domain.errors import (
    InvalidLLMOutputError,
    ProviderAuthError,
    ProviderError,
    ProviderRateLimitError,
    ProviderTimeoutError,
)
from eden_memory.domain.problems import one_line
from eden_memory.ports.embedder import Embeddings

R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)

_DETAIL_LIMIT = 300


class ProviderUnavailableError(ProviderError):
    """The provider failed on its side (5xx) or the connection broke: safe to retry."""

    retryable: ClassVar[bool] = True


class RateLimitedError(ProviderRateLimitError):
    """A 429, with the provider's hint of when to come back (None: no hint)."""

    def __init__(self, message: str, retry_after_seconds: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_seconds = retry_after_seconds


def short(detail: object) -> str:
    """A provider's message on one line, printable, cut to a length that reads well in a log."""
    return excerpt(str(detail), _DETAIL_LIMIT)


def api_key_from(explicit: str | None, env_names: Sequence[str], provider: str) -> str:
    """The key given, else the first of ``env_names`` that is set; none: a clear auth error."""
    for key in (explicit, *(os.environ.get(name) for name in env_names)):
        if key and key.strip():
            return key.strip()
    raise ProviderAuthError(
        f"{provider} needs an API key: set {' or '.join(env_names)} (or pass api_key=...)"
    )


def rejected_key(provider: str, status: int, detail: object, env_names: Sequence[str]) -> str:
    return (
        f"{provider} rejected the credentials ({status}: {short(detail)}); "
        f"check {' or '.join(env_names)}"
    )


async def within(seconds: float, call: Awaitable[R], provider: str) -> R:
    """``call``'s result, or ``ProviderTimeoutError`` once ``seconds`` have passed.

    The SDKs' own timeouts bound each network phase; this bounds the attempt as a whole,
    so a server that trickles bytes cannot hold a worker forever.
    """
    try:
        async with asyncio.timeout(seconds):
            return await call
    except TimeoutError as error:
        raise ProviderTimeoutError(f"{provider} did not answer within {seconds:g} s") from error


def validated(text: str | None, schema: type[M], provider: str, max_chars: int | None = None) -> M:
    """Validate the model's text into ``schema``; say what was wrong when it does not fit.
    A text longer than ``max_chars`` is refused before it is parsed (``bounded``)."""
    if text is None or not text.strip():
        raise InvalidLLMOutputError(f"{provider} returned an empty answer")
    bounded(text, max_chars, provider)
    try:
        return schema.model_validate_json(text)
    except ValidationError as error:
        loose = _loose_json(text)  # raw line breaks inside strings, as small models write them
        if loose is None:
            raise invalid_output(error, schema, provider) from error
        try:
            return schema.model_validate(loose)
        except ValidationError as second:
            raise invalid_output(second, schema, provider) from second


def bounded(text: str, max_chars: int | None, provider: str) -> None:
    """Refuse an answer longer than ``max_chars`` unparsed: a formation's answer is a few kB,
    and parsing megabytes would build hundreds of thousands of objects (issue 26)."""
    if max_chars is not None and len(text) > max_chars:
        raise InvalidLLMOutputError(
            f"{provider}'s answer is {len(text)} characters, over the bound of {max_chars} "
            "(EDEN_MEMORY_MEMORY__MODELS__MAX_ANSWER_CHARS): refused unparsed"
        )


def _loose_json(text: str) -> object | None:
    """JSON that breaks only the rule against control characters inside strings, or None.

    Qwen2.5-1.5B (issue 15) wrote a consolidated blob's lines with real line breaks inside
    the JSON string; the text means exactly what the escaped form would.
    """
    try:
        loose: object = json.loads(text, strict=False)
    except (ValueError, RecursionError):  # RecursionError: nested thousands of levels deep
        return None
    return loose


def invalid_output(error: ValidationError, schema: type[BaseModel], provider: str) -> Exception:
    """Tell malformed JSON apart from well-formed JSON that breaks the schema."""
    problems = error.errors(include_url=False)
    if any(problem["type"] == "json_invalid" for problem in problems):
        return InvalidLLMOutputError(
            f"{provider} returned malformed JSON for {schema.__name__}: {short(problems[0]['msg'])}"
        )
    return InvalidLLMOutputError(
        f"{provider}'s answer violates the schema {schema.__name__} "
        f"({len(problems)} error(s)): {short(one_line(error))}"
    )


def token_bound(text: str) -> int:
    """An upper bound on the tokens of ``text``: a BPE token spans at least one UTF-8 byte."""
    return max(1, len(text.encode("utf-8")))


def batches(texts: Sequence[str], max_items: int, max_tokens: int | None) -> list[range]:
    """Consecutive index ranges of ``texts`` that each fit one provider request.

    A batch holds at most ``max_items`` texts and, when ``max_tokens`` is given, at most
    that many tokens by ``token_bound``; a single text over the budget still gets a batch
    of its own (the provider then decides). Order is kept, so results concatenate.
    """
    ranges: list[range] = []
    start, tokens = 0, 0
    for index, text in enumerate(texts):
        cost = token_bound(text)
        full = index - start >= max_items or (max_tokens is not None and tokens + cost > max_tokens)
        if full and index > start:
            ranges.append(range(start, index))
            start, tokens = index, 0
        tokens += cost
    if start < len(texts):
        ranges.append(range(start, len(texts)))
    return ranges


async def embed_in_batches(
    texts: Sequence[str],
    spans: Sequence[range],
    retry: RetryPolicy,
    request: Callable[[list[str]], Awaitable[Embeddings]],
) -> Embeddings:
    """Send each batch through ``request`` (retried on its own) and join the results."""
    vectors: list[list[float]] = []
    tokens = 0
    for span in spans:
        batch = [texts[i] for i in span]
        part = await retry.run(partial(request, batch))
        vectors.extend(part.vectors)
        tokens += part.input_tokens
    return Embeddings(vectors=vectors, input_tokens=tokens)
