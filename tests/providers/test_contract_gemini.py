"""The LLM and embedder contracts, run against the Gemini adapters and the local stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

from eden_memory.adapters.embedders.gemini import GeminiEmbedder
from eden_memory.adapters.llms.gemini import GeminiLLM
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM
from tests.contract.embedder_contract import EmbedderContract
from tests.contract.llm_contract import LLMAnswering, LLMContract
from tests.providers import gemini_wire
from tests.providers.conftest import FAST
from tests.providers.standin import Reply, StandIn


def settings(server: StandIn) -> dict[str, Any]:
    return {"api_key": "test-key", "base_url": server.url, **FAST}


class TestGeminiLLM(LLMContract):
    @pytest.fixture
    async def llm(self, gemini_server: StandIn) -> AsyncIterator[GeminiLLM]:
        llm = GeminiLLM(**settings(gemini_server))
        yield llm
        await llm.aclose()

    @pytest.fixture
    def llm_answering(self, llm: GeminiLLM, gemini_server: StandIn) -> LLMAnswering:
        def answering(answers: Sequence[str]) -> LLM:
            gemini_server.queue(*(Reply(200, gemini_wire.generate_body(a)) for a in answers))
            return llm

        return answering

    @pytest.fixture
    def failing_llm(self, llm: GeminiLLM, gemini_server: StandIn) -> LLM:
        gemini_server.queue(*[gemini_wire.overloaded()] * 3)
        return llm


class TestGeminiEmbedder(EmbedderContract):
    symmetric = False

    @pytest.fixture
    async def embedder(self, gemini_server: StandIn) -> AsyncIterator[Embedder]:
        embedder = GeminiEmbedder(output_dimensionality=256, **settings(gemini_server))
        yield embedder
        await embedder.aclose()
