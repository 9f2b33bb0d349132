"""The LLM and embedder contracts, run against the OpenAI adapters and the local stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

from eden_memory.adapters.embedders.openai import OpenAIEmbedder
from eden_memory.adapters.llms.openai import OpenAILLM
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM
from tests.contract.embedder_contract import EmbedderContract
from tests.contract.llm_contract import LLMAnswering, LLMContract
from tests.providers import openai_wire
from tests.providers.conftest import FAST
from tests.providers.standin import Reply, StandIn


def settings(server: StandIn) -> dict[str, Any]:
    return {"api_key": "sk-test", "base_url": f"{server.url}/v1", **FAST}


class TestOpenAIResponsesLLM(LLMContract):
    @pytest.fixture
    async def llm(self, openai_server: StandIn) -> AsyncIterator[OpenAILLM]:
        llm = OpenAILLM(api="responses", **settings(openai_server))
        yield llm
        await llm.aclose()

    @pytest.fixture
    def llm_answering(self, llm: OpenAILLM, openai_server: StandIn) -> LLMAnswering:
        def answering(answers: Sequence[str]) -> LLM:
            openai_server.queue(*(Reply(200, openai_wire.response_body(a)) for a in answers))
            return llm

        return answering

    @pytest.fixture
    def failing_llm(self, llm: OpenAILLM, openai_server: StandIn) -> LLM:
        openai_server.queue(*[openai_wire.server_error()] * 3)
        return llm


class TestOpenAIChatLLM(LLMContract):
    @pytest.fixture
    async def llm(self, openai_server: StandIn) -> AsyncIterator[OpenAILLM]:
        llm = OpenAILLM(api="chat", **settings(openai_server))
        yield llm
        await llm.aclose()

    @pytest.fixture
    def llm_answering(self, llm: OpenAILLM, openai_server: StandIn) -> LLMAnswering:
        def answering(answers: Sequence[str]) -> LLM:
            openai_server.queue(*(Reply(200, openai_wire.chat_body(a)) for a in answers))
            return llm

        return answering

    @pytest.fixture
    def failing_llm(self, llm: OpenAILLM, openai_server: StandIn) -> LLM:
        openai_server.queue(*[openai_wire.server_error()] * 3)
        return llm


class TestOpenAIEmbedder(EmbedderContract):
    symmetric = True

    @pytest.fixture
    async def embedder(self, openai_server: StandIn) -> AsyncIterator[Embedder]:
        embedder = OpenAIEmbedder(dimensions=256, **settings(openai_server))
        yield embedder
        await embedder.aclose()
