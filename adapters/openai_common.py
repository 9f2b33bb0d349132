"""The OpenAI client as the LLM and embedder adapters build it, and its errors translated.

The SDK is imported only when an OpenAI adapter is built, and its own retries are switched
off (``max_retries=0``): retries are the library's ``RetryPolicy``, visible and tunable.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from pydantic import BaseModel

from eden_memory.adapters.provider_answers import Received, read_answer
from eden_memory.adapters.providers_common import (
    ProviderUnavailableError,
    RateLimitedError,
    api_key_from,
    rejected_key,
    short,
    within,
)
from eden_memory.adapters.request_hints import (
    model_missing,
    no_responses_api,
    says_invalid,
    what_to_change,
)
from eden_memory.domain.errors import (
    MissingExtraError,
    ProviderAuthError,
    ProviderError,
    ProviderTimeoutError,
)

if TYPE_CHECKING:
    import openai

R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


def provider_label(base_url: str | None) -> str:
    """How errors name the server: OpenAI itself, or the compatible server at ``base_url``."""
    return "OpenAI" if base_url is None else f"OpenAI-compatible server {base_url}"


def openai_client(
    feature: str,
    *,
    api_key: str | None,
    api_key_env: str,
    base_url: str | None,
    timeout_seconds: float,
) -> openai.AsyncOpenAI:
    """An ``AsyncOpenAI`` with our timeout and no hidden retries; a missing key fails here."""
    try:
        import openai
    except ImportError as error:
        raise MissingExtraError(feature, "openai", "openai") from error
    key = api_key_from(api_key, (api_key_env,), provider_label(base_url))
    return openai.AsyncOpenAI(
        api_key=key, base_url=base_url, timeout=timeout_seconds, max_retries=0
    )


@dataclass(frozen=True)
class CallSite:
    """Who is called and how, so an error can say what to change.

    ``api`` is "responses", "chat" or None (embeddings); ``schema_mode`` how a chat call
    asks for its schema (None: not a structured call).
    """

    provider: str
    key_env: str
    api: str | None = None
    schema_mode: str | None = None


class RawAnswer(Protocol):
    """What ``with_raw_response`` gives back: the answer before the SDK reads it."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def content(self) -> bytes: ...


async def answered(
    call: Awaitable[RawAnswer], shape: type[M], timeout_seconds: float, site: CallSite
) -> tuple[M, Received]:
    """The answer to one ``with_raw_response`` call as ``shape``, checked here, not by the SDK
    (which returns a non-JSON body as a ``str`` and never validates its models); with the
    answer as received, for the errors that later checks raise."""
    raw = await guarded(call, timeout_seconds, site)
    content_type = raw.headers.get("content-type")
    received = Received(site.provider, raw.status_code, content_type, raw.content)
    return read_answer(shape, received), received


async def guarded(call: Awaitable[R], timeout_seconds: float, site: CallSite) -> R:
    """Await one SDK call within the deadline; SDK errors become ours."""
    import openai

    try:
        return await within(timeout_seconds, call, site.provider)
    except openai.OpenAIError as error:
        raise translate(error, site) from error


def translate(error: openai.OpenAIError, site: CallSite) -> ProviderError:
    """The library's error for an SDK error (transport and HTTP status failures)."""
    import openai

    provider = site.provider

    if isinstance(error, openai.APITimeoutError):
        return ProviderTimeoutError(f"{provider} did not answer in time")
    if isinstance(error, openai.APIConnectionError):
        return ProviderUnavailableError(f"{provider} could not be reached: {short(error)}")
    if isinstance(error, openai.APIStatusError):
        return _from_status(error, site)
    return ProviderError(f"{provider} failed: {short(error)}")


def _from_status(error: openai.APIStatusError, site: CallSite) -> ProviderError:
    status, detail, provider = error.status_code, _detail(error), site.provider
    if status in (401, 403):
        return ProviderAuthError(rejected_key(provider, status, detail, (site.key_env,)))
    refused = _refused(status, short(detail), error.code, site)
    if refused is not None:
        return refused
    if status == 429 and error.code == "insufficient_quota":
        # Retrying cannot help: the account is out of credit until someone pays.
        return ProviderError(f"{provider} quota is exhausted (429): {short(detail)}")
    if status == 429:
        return RateLimitedError(
            f"{provider} rate-limited the request (429): {short(detail)}",
            retry_after(error.response.headers.get("retry-after-ms"), 1000.0)
            or retry_after(error.response.headers.get("retry-after"), 1.0),
        )
    if status == 408:
        return ProviderTimeoutError(f"{provider} timed out on its side (408)")
    if status >= 500:
        return ProviderUnavailableError(
            f"{provider} failed on its side ({status}): {short(detail)}"
        )
    return ProviderError(f"{provider} refused the request ({status}): {short(detail)}")


def _refused(status: int, detail: str, code: str | None, site: CallSite) -> ProviderError | None:
    """A request the server cannot serve as sent, with what to change; None otherwise.

    Not retried: a 4xx that says the request is invalid, and a 5xx that says so too (some
    compatible servers answer an unsupported parameter with a 500).
    """
    if status == 404 and site.api == "responses" and not model_missing(detail, code):
        return ProviderError(no_responses_api(site.provider, detail))
    invalid_4xx = status in (400, 404, 405, 413, 415, 422)
    if not (invalid_4xx or (status >= 500 and says_invalid(detail))):
        return None
    change = what_to_change(detail, site.schema_mode)
    return ProviderError(f"{site.provider} refused the request ({status}: {detail}): {change}")


def _detail(error: openai.APIStatusError) -> object:
    body = error.body
    if isinstance(body, dict):
        # OpenAI's error message, or FastAPI's {"detail": ...} (llama-cpp-python, vLLM).
        for key in ("message", "detail"):
            if body.get(key):
                return body[key]
    if isinstance(body, str) and body.strip():
        return body  # not JSON: a proxy's page, quoted (``short`` keeps it to one line)
    return error.message


def retry_after(header: str | None, divisor: float) -> float | None:
    """Seconds from a Retry-After style header (a number only; dates are ignored)."""
    try:
        seconds = float(header) / divisor if header else None
    except ValueError:
        return None
    return seconds if seconds is not None and 0 <= seconds < 3600 else None
