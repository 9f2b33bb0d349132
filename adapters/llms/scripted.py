"""An LLM that answers from a script: the deterministic model for tests and demos.

Answers go through the same validation a real adapter applies, so a test that feeds a
malformed answer sees the same ``InvalidLLMOutputError`` production would::

    llm = ScriptedLLM(by_purpose={
        "fact_extraction": [{"facts": []}],
        "dedup": lambda request, schema: {"decisions": []},
    })
"""

from __future__ import annotations

import inspect
import math
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeAlias

from pydantic import BaseModel, ValidationError

from eden_memory.adapters.providers_common import bounded
from eden_memory.domain.errors import InvalidLLMOutputError, ProviderError
from eden_memory.domain.problems import one_line
from eden_memory.ports.llm import LLMRequest, LLMResult, T

Answer: TypeAlias = BaseModel | dict[str, Any] | str
Responder: TypeAlias = Callable[
    [LLMRequest, type[BaseModel]], Answer | Exception | Awaitable[Answer | Exception]
]
Script: TypeAlias = Iterable[Answer | Exception] | Responder

CHARS_PER_TOKEN = 4


class ScriptExhaustedError(ProviderError):
    """The test gave fewer answers than the code under test asked for."""


class ScriptedLLM:
    """Answers each call with the next scripted item (or a function's answer) and records it.

    An item is a pydantic value, a dict or a JSON string (validated into the requested
    schema; a string longer than the request's ``max_answer_chars`` is refused unparsed,
    as the provider adapters refuse one) or an exception (raised). Answers keyed by
    ``request.purpose`` in ``by_purpose`` come first; ``responses`` serves every other purpose.
    """

    def __init__(
        self, responses: Script | None = None, *, by_purpose: Mapping[str, Script] | None = None
    ) -> None:
        self._default = _source(responses) if responses is not None else None
        self._by_purpose = {p: _source(s) for p, s in (by_purpose or {}).items()}
        self.requests: list[LLMRequest] = []

    def calls_for(self, purpose: str) -> list[LLMRequest]:
        return [r for r in self.requests if r.purpose == purpose]

    def remaining(self, purpose: str | None = None) -> int | None:
        """Scripted answers left for a purpose (None: served by a function, without limit)."""
        source = self._by_purpose.get(purpose, self._default) if purpose else self._default
        return len(source) if isinstance(source, deque) else None

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        self.requests.append(request)
        answer = await self._next(request, schema)
        if isinstance(answer, Exception):
            raise answer
        value = _validate(answer, schema, request)
        return LLMResult(
            value=value,
            model=request.model,
            input_tokens=_tokens(request.system) + _tokens(request.prompt),
            output_tokens=_tokens(value.model_dump_json()),
        )

    async def _next(self, request: LLMRequest, schema: type[BaseModel]) -> Answer | Exception:
        source = self._by_purpose.get(request.purpose, self._default)
        if isinstance(source, deque):
            if source:
                return source.popleft()
        elif source is not None:
            answer = source(request, schema)
            return await answer if inspect.isawaitable(answer) else answer
        raise ScriptExhaustedError(
            f"ScriptedLLM has no response left for purpose {request.purpose!r} "
            f"({len(self.calls_for(request.purpose))} calls so far)"
        )


def _source(script: Script) -> deque[Answer | Exception] | Responder:
    return script if callable(script) else deque(script)


def _validate(answer: Answer, schema: type[T], request: LLMRequest) -> T:
    if isinstance(answer, schema):
        return answer
    try:
        if isinstance(answer, str):  # text, as a provider sends it: bounded like theirs
            bounded(answer, request.max_answer_chars, "ScriptedLLM")
            return schema.model_validate_json(answer)
        if isinstance(answer, BaseModel):
            return schema.model_validate(answer.model_dump())
        return schema.model_validate(answer)
    except ValidationError as error:
        raise InvalidLLMOutputError(
            f"the answer for {request.purpose!r} does not match {schema.__name__}: "
            f"{one_line(error)}"
        ) from error


def _tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)
