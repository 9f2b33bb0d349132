"""The Gemini client as the LLM and embedder adapters build it, and its errors translated.

The ``google-genai`` SDK is imported only when a Gemini adapter is built. It is given one
attempt per call (``HttpRetryOptions(attempts=1)``, which also turns off its implicit
aiohttp reconnect loop): retries are the library's ``RetryPolicy``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from eden_memory.adapters.provider_answers import Received, as_json, first_problem
from eden_memory.adapters.providers_common import (
    ProviderUnavailableError,
    RateLimitedError,
    api_key_from,
    rejected_key,
    short,
    within,
)
from eden_memory.domain.errors import (
    MissingExtraError,
    ProviderAuthError,
    ProviderError,
    ProviderTimeoutError,
)

if TYPE_CHECKING:
    from google import genai
    from google.genai import errors, types

R = TypeVar("R")

PROVIDER = "Gemini"
# The SDK's own order: GOOGLE_API_KEY wins when both are set.
KEY_ENVS = ("GOOGLE_API_KEY", "GEMINI_API_KEY")
_TRANSPORT_PACKAGES = {"httpx", "httpx2", "httpcore", "httpcore2", "aiohttp", "anyio"}


def gemini_client(
    feature: str, *, api_key: str | None, base_url: str | None, timeout_seconds: float
) -> genai.Client:
    """A Gemini Developer API client with our timeout and a single attempt per call."""
    try:
        from google import genai
        from google.genai import types
    except ImportError as error:
        raise MissingExtraError(feature, "gemini", "google-genai") from error
    options = types.HttpOptions(
        base_url=base_url,
        timeout=math.ceil(timeout_seconds * 1000),  # the SDK counts milliseconds
        retry_options=types.HttpRetryOptions(attempts=1),
    )
    key = api_key_from(api_key, KEY_ENVS, PROVIDER)
    return genai.Client(api_key=key, vertexai=False, http_options=options)


async def guarded(call: Awaitable[R], timeout_seconds: float) -> R:
    """Await one SDK call within the deadline; SDK and transport errors become ours."""
    try:
        return await within(timeout_seconds, call, PROVIDER)
    except Exception as error:
        translated = translate(error)
        if translated is None:
            raise
        raise translated from error


def received(response: types.HttpResponse | None) -> Received:
    """A body the SDK handed back as it came (``should_return_http_response``).

    Its status was 200: the SDK raises ``APIError`` for any other."""
    headers = (
        {name.lower(): value for name, value in (response.headers or {}).items()}
        if response
        else {}
    )
    body = response.body if response else None
    return Received(PROVIDER, 200, headers.get("content-type"), body or "")


def translate(error: Exception) -> ProviderError | None:
    """The library's error for an SDK or transport error; None for anything else."""
    from google.genai import errors

    if isinstance(error, errors.APIError):
        return _from_status(error)
    misread = _misread(error)
    if misread is not None:
        return misread
    if not _is_transport(error):
        return None
    if any("Timeout" in cls.__name__ for cls in type(error).__mro__):
        return ProviderTimeoutError(f"{PROVIDER} did not answer in time")
    return ProviderUnavailableError(f"{PROVIDER} could not be reached: {short(error)}")


def _misread(error: Exception) -> ProviderError | None:
    """The SDK's own reading of a 200 failed (``embed_content`` hands back no raw body): not
    JSON, not UTF-8 (its aiohttp transport decodes strictly), or not the API's shape."""
    from google.genai import errors

    if isinstance(error, json.JSONDecodeError):
        return Received(PROVIDER, 200, None, error.doc).fault(f"not JSON ({error.msg})")
    if isinstance(error, UnicodeDecodeError):
        return Received(PROVIDER, 200, None, error.object).fault("not UTF-8")
    if isinstance(error, errors.UnknownApiResponseError):
        return Received(PROVIDER, 200, None, str(error), "the SDK's message").fault("not JSON")
    if isinstance(error, TypeError | AttributeError) and _raised_in_sdk(error):
        # Its converters iterate what should be a list or object: a bare number breaks them.
        return Received(PROVIDER, 200, None, str(error), "the SDK's message").fault(
            "not the API's shape"
        )
    if isinstance(error, ValidationError) and error.title.endswith("Response"):
        got = as_json(error.errors(include_url=False)[0]["input"])
        return Received(PROVIDER, 200, None, got, "the value").fault(first_problem(error))
    return None


def _raised_in_sdk(error: BaseException) -> bool:
    """Whether the error's innermost frame is google-genai's own code (not ours, not a bug
    of the caller's arguments, which fail before the request is sent)."""
    frame = error.__traceback__
    if frame is None:
        return False
    while frame.tb_next is not None:
        frame = frame.tb_next
    return "/google/genai/" in frame.tb_frame.f_code.co_filename.replace("\\", "/")


def _is_transport(error: Exception) -> bool:
    return isinstance(error, OSError) or (
        type(error).__module__.split(".")[0] in _TRANSPORT_PACKAGES
    )


def _from_status(error: errors.APIError) -> ProviderError:
    code, detail = error.code, error.message or error.status or error.details
    if code in (401, 403) or _key_invalid(error.details):
        return ProviderAuthError(rejected_key(PROVIDER, code, detail, KEY_ENVS))
    if code == 429:
        return RateLimitedError(
            f"{PROVIDER} rate-limited the request (429): {short(detail)}",
            _retry_delay(error.details),
        )
    if code in (408, 504):
        return ProviderTimeoutError(f"{PROVIDER} timed out ({code}): {short(detail)}")
    if code >= 500:
        return ProviderUnavailableError(f"{PROVIDER} failed on its side ({code}): {short(detail)}")
    return ProviderError(f"{PROVIDER} refused the request ({code}): {short(detail)}")


def _details(body: Any) -> list[dict[str, Any]]:
    """The ``error.details`` list of a Google API error body (google.rpc status details)."""
    error = body.get("error", body) if isinstance(body, dict) else None
    items = error.get("details") if isinstance(error, dict) else None
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _key_invalid(body: Any) -> bool:
    """Gemini answers a wrong key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID."""
    return any(item.get("reason") == "API_KEY_INVALID" for item in _details(body))


def _retry_delay(body: Any) -> float | None:
    """The ``retryDelay`` of a google.rpc.RetryInfo detail ("13s", "0.5s"), in seconds."""
    for item in _details(body):
        if str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
            try:
                return float(str(item.get("retryDelay", "")).removesuffix("s"))
            except ValueError:
                return None
    return None
