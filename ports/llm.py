"""Structured generation: a prompt in, a validated pydantic value out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class LLMRequest:
    model: str
    system: str
    prompt: str
    # What the call is for (fact_extraction, dedup, reflections, consolidation): for
    # accounting, tracing and scripted fakes.
    purpose: str
    max_output_tokens: int | None = None
    temperature: float | None = None
    # The longest answer text the adapter may parse (None: no bound). Longer ones are
    # refused unparsed with ``InvalidLLMOutputError``: a runaway answer of megabytes must
    # not become hundreds of thousands of objects.
    max_answer_chars: int | None = None


@dataclass(frozen=True)
class LLMResult(Generic[T]):
    value: T
    model: str
    input_tokens: int = 0
    output_tokens: int = 0


class LLM(Protocol):
    """One chat model answering with structured output. An adapter must return a value that
    validates against ``schema`` or raise (below), and report the model that answered and
    the tokens it used (for metering)."""

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        """Answer ``request`` with a value of ``schema``.

        Raises ``InvalidLLMOutputError`` when the answer is refused, truncated, longer than
        ``request.max_answer_chars``, malformed or does not validate; provider failures
        become ``ProviderError`` subclasses.
        """
        ...
