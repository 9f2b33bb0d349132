"""An answer cut at the token limit: asked once more with twice the room, else reported.

A truncated JSON answer cannot be repaired, and asking again with the same limit would be
cut at the same place. When the caller set ``max_output_tokens`` the adapters ask once more
with twice as many; when it set none, the limit was the server's (its default, or a local
server's context window) and the error says so instead of retrying.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.ports.llm import LLMRequest

R = TypeVar("R")


class TruncatedAnswerError(InvalidLLMOutputError):
    """The provider stopped the answer at a token limit (finish reason length/MAX_TOKENS)."""


def truncated(provider: str, request: LLMRequest) -> TruncatedAnswerError:
    """The error for an answer cut at ``request``'s limit, saying which limit it was."""
    if request.max_output_tokens is not None:
        return TruncatedAnswerError(
            f"{provider} truncated the answer at max_output_tokens={request.max_output_tokens}"
        )
    return TruncatedAnswerError(
        f"{provider} truncated the answer at its own token limit (no max_output_tokens was "
        "sent): raise the server's default output length or context window (a "
        "llama-cpp-python server: --n_ctx)"
    )


async def with_more_room(request: LLMRequest, ask: Callable[[LLMRequest], Awaitable[R]]) -> R:
    """``ask(request)``; once more with twice ``max_output_tokens`` if the answer was cut."""
    try:
        return await ask(request)
    except TruncatedAnswerError:
        if request.max_output_tokens is None:
            raise
    roomier = replace(request, max_output_tokens=request.max_output_tokens * 2)
    try:
        return await ask(roomier)
    except TruncatedAnswerError as error:
        error.add_note(f"asked twice: with {request.max_output_tokens} and then more tokens")
        raise
