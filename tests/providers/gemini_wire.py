"""Gemini's wire format (Developer API, REST/JSON), for the stand-in.

``/{version}/models/{model}:generateContent`` answers what a test queues (built with
``generate_body`` / ``blocked_prompt_body``); ``:batchEmbedContents`` and ``:embedContent``
compute deterministic vectors, normalized only at the full 3072 dimensions, as the real
model does; a ``RETRIEVAL_QUERY`` vector is bent away from the text's other ones, as a task
type changes the real model's, so a test sees which type was sent. The key ``wrong-key`` is
refused the way Gemini refuses one: 400 INVALID_ARGUMENT with reason API_KEY_INVALID.
"""

from __future__ import annotations

import math
import re
from typing import Any

from tests.providers.openai_wire import vector_for
from tests.providers.standin import Recorded, Reply

MODEL_VERSION = "gemini-3-flash-preview"
WRONG_KEY = "wrong-key"
FULL_DIMENSIONS = 3072
_PATH = re.compile(r"^/(?P<version>v1\w*)/models/(?P<model>[^:/]+):(?P<method>\w+)$")


def authorize(request: Recorded) -> Reply | None:
    key = request.headers.get("x-goog-api-key")
    if key is None:
        message = (
            "Method doesn't allow unregistered callers (callers without established identity)."
            " Please use API Key or other form of API consumer identity to call this API."
        )
        return Reply(403, error_body(403, message, "PERMISSION_DENIED"))
    if key != WRONG_KEY:
        return None
    info = {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "API_KEY_INVALID",
        "domain": "googleapis.com",
        "metadata": {"service": "generativelanguage.googleapis.com"},
    }
    message = "API key not valid. Please pass a valid API key."
    return Reply(400, error_body(400, message, "INVALID_ARGUMENT", [info]))


def respond(request: Recorded) -> Reply:
    match = _PATH.match(request.path)
    method = match["method"] if match else None
    if method == "batchEmbedContents":
        embeddings = [_embedding(item) for item in request.body["requests"]]
        return Reply(200, {"embeddings": embeddings})
    if method == "embedContent":
        return Reply(200, {"embedding": _embedding(request.body)})
    message = f"stand-in: nothing queued for {request.path}"
    return Reply(404, error_body(404, message, "NOT_FOUND"))


def error_body(
    code: int, message: str, status: str, details: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details:
        error["details"] = details
    return {"error": error}


def rate_limited(retry_delay: str = "7s") -> Reply:
    message = (
        "You exceeded your current quota, please check your plan and billing details. "
        "For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits."
    )
    details: list[dict[str, Any]] = [
        {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            "violations": [
                {
                    "quotaMetric": "generativelanguage.googleapis.com/generate_content_requests",
                    "quotaId": "GenerateRequestsPerMinutePerProjectPerModel",
                }
            ],
        },
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay},
    ]
    return Reply(429, error_body(429, message, "RESOURCE_EXHAUSTED", details))


def server_error() -> Reply:
    message = "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
    return Reply(500, error_body(500, message, "INTERNAL"))


def overloaded() -> Reply:
    return Reply(
        503, error_body(503, "The model is overloaded. Please try again later.", "UNAVAILABLE")
    )


def generate_body(
    text: str | None,
    *,
    finish_reason: str = "STOP",
    prompt_tokens: int = 21,
    answer_tokens: int = 12,
    thoughts_tokens: int = 25,
) -> dict[str, Any]:
    """A GenerateContentResponse with one candidate (no content when ``text`` is None)."""
    candidate: dict[str, Any] = {"finishReason": finish_reason, "index": 0}
    if text is not None:
        candidate["content"] = {"parts": [{"text": text}], "role": "model"}
    if finish_reason == "SAFETY":
        candidate["safetyRatings"] = [
            {"category": "HARM_CATEGORY_HARASSMENT", "probability": "HIGH", "blocked": True}
        ]
    usage = {
        "promptTokenCount": prompt_tokens,
        "candidatesTokenCount": answer_tokens,
        "thoughtsTokenCount": thoughts_tokens,
        "totalTokenCount": prompt_tokens + answer_tokens + thoughts_tokens,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt_tokens}],
    }
    return {
        "candidates": [candidate],
        "usageMetadata": usage,
        "modelVersion": MODEL_VERSION,
        "responseId": "mGf3aKzVKvKnkdUP5ODl2QQ",
    }


def blocked_prompt_body(reason: str = "SAFETY") -> dict[str, Any]:
    """The answer to a prompt Gemini refuses to read: no candidates, a prompt feedback."""
    ratings = [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}]
    return {
        "promptFeedback": {"blockReason": reason, "safetyRatings": ratings},
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": MODEL_VERSION,
        "responseId": "xGf3aKzVKvKnkdUP5ODl2QQ",
    }


def raw_vector_for(text: str, dimensions: int, task_type: str | None = None) -> list[float]:
    """What the stand-in returns: unit length only at the full size, as Gemini's model."""
    unit = vector_for(text, dimensions)
    if task_type == "RETRIEVAL_QUERY":
        bent = [a + b for a, b in zip(unit, vector_for(f"query:{text}", dimensions), strict=True)]
        unit = [v / norm(bent) for v in bent]
    return unit if dimensions == FULL_DIMENSIONS else [0.37 * v for v in unit]


def _embedding(item: dict[str, Any]) -> dict[str, Any]:
    text = "".join(part.get("text", "") for part in item["content"]["parts"])
    dimensions = int(item.get("outputDimensionality", FULL_DIMENSIONS))
    return {"values": raw_vector_for(text, dimensions, item.get("taskType"))}


def norm(vector: list[float]) -> float:
    return math.sqrt(sum(v * v for v in vector))
