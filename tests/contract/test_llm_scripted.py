"""The LLM contract, run against the scripted LLM."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.domain.errors import ProviderError
from eden_memory.ports.llm import LLM
from tests.contract.llm_contract import LLMAnswering, LLMContract


class TestScriptedLLM(LLMContract):
    @pytest.fixture
    def llm_answering(self) -> LLMAnswering:
        def answering(answers: Sequence[str]) -> LLM:
            return ScriptedLLM(list(answers))

        return answering

    @pytest.fixture
    def failing_llm(self) -> LLM:
        return ScriptedLLM([ProviderError("the provider answered 503")])
