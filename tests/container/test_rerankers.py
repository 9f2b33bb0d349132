"""The reranker the settings name is the one a search uses; one given to open_memory wins."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from eden_memory.adapters.rerankers.fake import WordOverlapReranker
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ConfigurationError
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.factory import open_memory
from tests.container.conftest import Settings
from tests.tiny_cross_encoder import save_tiny_cross_encoder

FACTS = ["Ana moved to Braga", "Ana has a cat named Miso", "Bob prefers tea"]


def reranking(how: RerankBy, model: str | None = None) -> MemorySettings:
    search = SearchSettings(rerank=how, rerank_model=model, abstain_below=0.0)
    return MemorySettings(search=search)


async def rerank_note(memory: MemoryService) -> str:
    await memory.admin.add_facts(
        [
            {
                "content": c,
                "agent_id": "nova",
                "user_id": "ana",
                "formed_at": "2026-01-01T00:00:00Z",
            }
            for c in FACTS
        ]
    )
    chat = memory.conversation(AgentMemoryConfig("nova"), "s1", ["ana"])
    found = await memory.search_facts(chat, ["Where does Ana live"], debug=True)
    assert found.debug is not None
    return found.debug.rerank


async def test_a_cross_encoder_named_in_the_settings_reranks(
    settings: Settings, tmp_path: Path
) -> None:
    folder = save_tiny_cross_encoder(tmp_path / "tiny-ce")
    config = settings(memory=reranking(RerankBy.CROSS_ENCODER, str(folder)))
    async with open_memory(config) as memory:
        assert re.fullmatch(r"tiny-ce: (\d) of \1 judged", await rerank_note(memory))


async def test_a_cross_encoder_folder_that_is_not_there_is_refused_on_opening(
    settings: Settings, tmp_path: Path
) -> None:
    config = settings(memory=reranking(RerankBy.CROSS_ENCODER, str(tmp_path / "absent")))
    with pytest.raises(ConfigurationError, match="must be the folder of a cross-encoder"):
        async with open_memory(config):
            pass


async def test_a_reranker_given_to_open_memory_wins(settings: Settings, tmp_path: Path) -> None:
    config = settings(memory=reranking(RerankBy.CROSS_ENCODER, str(tmp_path / "unused")))
    async with open_memory(config, reranker=WordOverlapReranker()) as memory:
        assert re.fullmatch(r"word-overlap: (\d) of \1 judged", await rerank_note(memory))


async def test_off_builds_no_reranker_and_reranks_nothing(settings: Settings) -> None:
    async with open_memory(settings(), reranker=WordOverlapReranker()) as memory:
        assert await rerank_note(memory) == ""
