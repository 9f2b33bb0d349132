"""A provider's answer, read at the edge: a 200 whose body is not the API's answer fails here.

The SDKs read a success leniently. The OpenAI SDK hands back the text of a body that is not
JSON as a ``str`` and builds its models without validating them; google-genai parses the
model's answer text before it can be bounded. So the adapters take the body as it came
(OpenAI's ``with_raw_response``, Gemini's ``should_return_http_response``) and ``read_answer``
decodes it as UTF-8, parses it as JSON and validates it against a small model of exactly the
fields the adapter reads. Whatever does not fit is an ``UnreadableAnswerError``: one line
naming the provider, the HTTP status, the problem and the start of the body, safe to log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from eden_memory.domain.errors import ProviderError
from eden_memory.domain.problems import one_line, where

M = TypeVar("M", bound=BaseModel)

EXCERPT_CHARS = 200


class UnreadableAnswerError(ProviderError):
    """A success status with a body that is not the API's answer: not UTF-8, not JSON, or
    fields missing or of the wrong type. Not retried: a gateway that answers with a page of
    HTML, or a server that speaks another dialect, answers the same way the next time."""


def excerpt(body: bytes | str, limit: int = EXCERPT_CHARS) -> str:
    """The start of ``body`` on one line: printable characters only, at most ``limit`` long."""
    head = body[: limit * 4]
    text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass(frozen=True)
class Received:
    """A success answer as it came, for the errors that say what was wrong with it.

    ``shown`` names what ``body`` is: the body, or (where the SDK read the body and kept
    none of it) the value it failed on, or the answer as it read it."""

    provider: str
    status: int
    content_type: str | None
    body: bytes | str
    shown: str = "body"

    def fault(
        self, problem: str, error: type[ProviderError] = UnreadableAnswerError
    ) -> ProviderError:
        """The error for this answer: ``problem``, the status and the start of the body
        (``InvalidLLMOutputError`` for a well-formed answer with nothing usable in it)."""
        kind = f", {self.content_type}" if self.content_type else ""
        quoted = excerpt(self.body) or "(empty)"
        return error(
            f"{self.provider} sent an unusable answer (HTTP {self.status}{kind}): "
            f"{excerpt(problem)}; {self.shown}: {quoted}"
        )


def read_answer(shape: type[M], received: Received) -> M:
    """``received``'s body as ``shape``, or the ``UnreadableAnswerError`` that says why not."""
    try:
        return shape.model_validate(_json(received))
    except ValidationError as error:
        raise received.fault(first_problem(error)) from error


def as_json(value: object) -> str:
    """``value`` (read from JSON) written back as JSON, to be quoted in an error."""
    return json.dumps(value, default=repr, ensure_ascii=False)


def first_problem(error: ValidationError) -> str:
    """Where and how an answer breaks its model, in ``one_line``'s words for the first field
    (the rest counted): ``choices[0].message: Input should be ...``; ``the answer: ...``
    where the answer as a whole is of the wrong type."""
    text = one_line(error, most=1)
    return text if where(error.errors(include_url=False)[0]["loc"]) else f"the answer: {text}"


def _json(received: Received) -> object:
    body = received.body
    try:
        text = body.decode("utf-8") if isinstance(body, bytes) else body
    except UnicodeDecodeError as error:
        raise received.fault(
            f"not UTF-8 (byte {body[error.start]:#04x} at {error.start})"
        ) from error
    if not text.strip():
        raise received.fault("an empty body")
    try:
        return json.loads(text)
    except ValueError as error:
        raise received.fault(f"not JSON ({error})") from error
    except RecursionError as error:  # nested thousands of levels deep
        raise received.fault("not JSON (nested too deep)") from error
