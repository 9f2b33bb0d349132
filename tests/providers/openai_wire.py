"""OpenAI's wire format, for the stand-in: bodies shaped like the API reference's examples.

``/v1/responses`` and ``/v1/chat/completions`` answer what a test queues (built with
``response_body`` / ``chat_body``); ``/v1/embeddings`` computes deterministic vectors for
whatever it is sent, honouring ``dimensions`` and ``encoding_format`` (float or base64) like
the real endpoint. The key ``sk-wrong`` is refused with the API's 401.
"""

from __future__ import annotations

import base64
import hashlib
import math
import struct
from typing import Any

from tests.providers.standin import Recorded, Reply

MODEL = "gpt-4.1-mini-2025-04-14"
WRONG_KEY = "sk-wrong"


def authorize(request: Recorded) -> Reply | None:
    key = request.headers.get("authorization", "").removeprefix("Bearer ")
    if key and key != WRONG_KEY:
        return None
    message = (
        f"Incorrect API key provided: {key}. You can find your API key at "
        "https://platform.openai.com/account/api-keys."
    )
    return Reply(401, error_body(message, "invalid_request_error", "invalid_api_key"))


def respond(request: Recorded) -> Reply:
    if request.path == "/v1/embeddings":
        return Reply(200, embeddings_body(request.body))
    return Reply(404, error_body(f"stand-in: nothing queued for {request.path}", "test", None))


def error_body(message: str, kind: str, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def rate_limited(retry_after_ms: int = 1) -> Reply:
    message = (
        f"Rate limit reached for {MODEL} in organization org-test on requests per min (RPM): "
        "Limit 500, Used 500, Requested 1. Please try again in 1ms."
    )
    headers = {"retry-after-ms": str(retry_after_ms), "x-ratelimit-remaining-requests": "0"}
    return Reply(429, error_body(message, "requests", "rate_limit_exceeded"), headers)


def server_error() -> Reply:
    message = "The server had an error while processing your request. Sorry about that!"
    return Reply(500, error_body(message, "server_error", None))


def quota_exhausted() -> Reply:
    message = "You exceeded your current quota, please check your plan and billing details."
    return Reply(429, error_body(message, "insufficient_quota", "insufficient_quota"))


def response_body(
    text: str | None = None,
    *,
    refusal: str | None = None,
    incomplete_reason: str | None = None,
    input_tokens: int = 36,
    output_tokens: int = 87,
) -> dict[str, Any]:
    """A Responses API object: one assistant message with ``text`` or a ``refusal``."""
    content: list[dict[str, Any]] = []
    if text is not None:
        content.append({"type": "output_text", "text": text, "annotations": [], "logprobs": []})
    if refusal is not None:
        content.append({"type": "refusal", "refusal": refusal})
    status = "incomplete" if incomplete_reason else "completed"
    message: dict[str, Any] = {"type": "message", "id": "msg_67ccd3acc8d48190a77525dc6de64b41"}
    message |= {"status": status, "role": "assistant", "content": content}
    return {
        "id": "resp_67ccd3a9da748190baa7f1570fe91ac604becb25c45c1d41",
        "object": "response",
        "created_at": 1741476777,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": incomplete_reason} if incomplete_reason else None,
        "model": MODEL,
        "output": [message],
        "parallel_tool_calls": True,
        "store": False,
        "temperature": 1.0,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
        "metadata": {},
    }


def chat_body(
    content: str | None = None,
    *,
    refusal: str | None = None,
    finish_reason: str = "stop",
    prompt_tokens: int = 19,
    completion_tokens: int = 10,
) -> dict[str, Any]:
    """A Chat Completions object with one choice."""
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": refusal}
    message["annotations"] = []
    return {
        "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        "object": "chat.completion",
        "created": 1741569952,
        "model": MODEL,
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": "fp_06737a9306",
    }


def vector_for(text: str, dimensions: int) -> list[float]:
    """The stand-in's unit vector for ``text``: seeded by its sha256, the same every run."""
    values: list[float] = []
    counter = 0
    while len(values) < dimensions:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        values.extend(b / 127.5 - 1.0 for b in digest)
        counter += 1
    values = values[:dimensions]
    norm = math.sqrt(sum(v * v for v in values))
    return [v / norm for v in values]


def embeddings_body(body: dict[str, Any]) -> dict[str, Any]:
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    dimensions = int(body.get("dimensions", 1536))
    as_base64 = body.get("encoding_format") == "base64"
    data = []
    for index, text in enumerate(texts):
        vector = vector_for(text, dimensions)
        encoded: Any = _base64(vector) if as_base64 else vector
        data.append({"object": "embedding", "index": index, "embedding": encoded})
    tokens = sum(math.ceil(len(text) / 4) for text in texts)
    return {
        "object": "list",
        "data": data,
        "model": body["model"],
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


def _base64(vector: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")
