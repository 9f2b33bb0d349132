"""The LLM contract: structured answers validated into the schema, failures translated.

Subclass ``LLMContract`` in a ``test_*.py`` module and provide two fixtures:

* ``llm_answering``: a function from raw answer texts to an ``LLM`` whose provider returns
  those texts, one per call, in order (real adapters: a mocked transport);
* ``failing_llm``: an ``LLM`` whose provider fails (a server error or a dropped connection).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from pydantic import BaseModel

from eden_memory.domain.errors import InvalidLLMOutputError, ProviderError
from eden_memory.ports.llm import LLM, LLMRequest

LLMAnswering = Callable[[Sequence[str]], LLM]

REQUEST = LLMRequest(
    model="contract-model",
    system="Extract facts as JSON.",
    prompt="Alice: my email is alice@example.com",
    purpose="fact_extraction",
)


class Item(BaseModel):
    content: str
    scope: str


class Extraction(BaseModel):
    facts: list[Item]


VALID = '{"facts": [{"content": "Alice\'s email is alice@example.com", "scope": "user"}]}'


class LLMContract:
    @pytest.fixture
    def llm_answering(self) -> LLMAnswering:
        raise NotImplementedError("an LLM contract subclass must provide `llm_answering`")

    @pytest.fixture
    def failing_llm(self) -> LLM:
        raise NotImplementedError("an LLM contract subclass must provide `failing_llm`")

    async def test_a_valid_answer_comes_back_as_a_schema_value(
        self, llm_answering: LLMAnswering
    ) -> None:
        result = await llm_answering([VALID]).generate(REQUEST, Extraction)
        assert result.value == Extraction.model_validate_json(VALID)
        assert isinstance(result.model, str)
        assert result.model
        assert result.input_tokens >= 0
        assert result.output_tokens >= 0

    async def test_answers_serve_calls_in_order(self, llm_answering: LLMAnswering) -> None:
        llm = llm_answering(['{"facts": []}', VALID])
        first = await llm.generate(REQUEST, Extraction)
        second = await llm.generate(REQUEST, Extraction)
        assert (len(first.value.facts), len(second.value.facts)) == (0, 1)

    @pytest.mark.parametrize(
        "answer",
        [
            pytest.param('{"facts": [{"content": "unterminated', id="malformed"),
            pytest.param('{"facts": [{"content": "no scope"}]}', id="missing-field"),
            pytest.param('{"facts": "not a list"}', id="wrong-type"),
            pytest.param("", id="empty"),
            pytest.param("I cannot help with that.", id="refusal"),
        ],
    )
    async def test_an_unusable_answer_is_invalid_output(
        self, llm_answering: LLMAnswering, answer: str
    ) -> None:
        with pytest.raises(InvalidLLMOutputError):
            await llm_answering([answer]).generate(REQUEST, Extraction)

    async def test_a_provider_failure_is_a_provider_error(self, failing_llm: LLM) -> None:
        with pytest.raises(ProviderError):
            await failing_llm.generate(REQUEST, Extraction)
