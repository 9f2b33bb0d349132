"""A port given to ``open_memory``, or overridden on the container, is the one used."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from dependency_injector import providers

from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.adapters.stores.memory import memory_stores
from eden_memory.adapters.stores.sqlite import SqliteFacts, open_sqlite
from eden_memory.application.service import MemoryService
from eden_memory.container import Container, running
from eden_memory.domain.errors import ConfigurationError, ProviderError
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.factory import open_memory
from eden_memory.testing import ScriptedLLM
from tests.container.conftest import Settings

AGENT = AgentMemoryConfig("support-bot")
FACT = {"facts": [{"content": "Alice's order is 4417.", "scope": "user", "source_messages": [1]}]}


def scripted() -> ScriptedLLM:
    return ScriptedLLM(lambda request, schema: {}, by_purpose={"fact_extraction": [FACT]})


async def tell_and_end(memory: MemoryService) -> None:
    chat = memory.conversation(AGENT, "s1", ["alice"])
    said = Message(
        id="m1",
        role=Role.USER,
        text="My order is 4417.",
        sent_at=datetime.now(UTC),
        author_id="alice",
    )
    await memory.record_messages(chat, [said])
    await memory.end_session(chat)


async def facts_in(memory: MemoryService) -> list[str]:
    return [f.content for f in await memory.admin.list_facts(AGENT.agent_id)]


async def test_ports_given_to_open_memory_do_the_work(settings: Settings) -> None:
    stores, embedder, llm = memory_stores(), FakeEmbedder(), scripted()
    config = settings(store="embedded", embedder="keyword", llm_provider="gemini")
    async with open_memory(config, llm=llm, store=stores, embedder=embedder) as memory:
        await tell_and_end(memory)
        assert await facts_in(memory) == ["Alice's order is 4417."]
        assert memory.admin.stores is stores
    assert llm.calls_for("fact_extraction")
    assert embedder.calls > 0


async def test_a_store_given_in_stays_open_for_its_owner(
    settings: Settings, tmp_path: Path
) -> None:
    store = await open_sqlite(tmp_path / "mine.db")
    try:
        async with open_memory(settings(), llm=scripted(), store=store) as memory:
            await tell_and_end(memory)
        async with open_memory(settings(), store=store) as memory:
            assert await facts_in(memory) == ["Alice's order is 4417."]
    finally:
        await store.close()


async def test_one_llm_per_role_can_be_given(settings: Settings) -> None:
    fast, reflections = scripted(), ScriptedLLM(lambda request, schema: {})
    llms = {
        ModelRole.FAST: fast,
        ModelRole.REFLECTION_FREE: reflections,
        ModelRole.REFLECTION_PREMIUM: reflections,
    }
    async with open_memory(settings(), llm=llms) as memory:
        await tell_and_end(memory)
    assert fast.calls_for("fact_extraction")
    assert reflections.calls_for("reflection_extraction")
    assert not fast.calls_for("reflection_extraction")


async def test_a_host_overrides_a_provider_of_the_container(settings: Settings) -> None:
    stores, llm = memory_stores(), scripted()
    container = Container(config=settings(store="embedded"))
    with (
        container.stores.override(providers.Object(stores)),
        container.llms.override(providers.Object({role: llm for role in ModelRole})),
    ):
        async with running(container) as memory:
            await tell_and_end(memory)
            assert memory.admin.stores is stores
    async with running(container) as memory:
        # The overrides are gone: the configured (empty) embedded store is back.
        assert isinstance(memory.admin.stores.facts, SqliteFacts)
        assert await facts_in(memory) == []


async def test_overriding_one_role_leaves_the_others_configured(settings: Settings) -> None:
    fast = scripted()
    container = Container(config=settings(llm_provider="gemini"))
    with container.llm_fast.override(providers.Object(fast)):
        async with running(container) as memory:
            # Facts come from the override; reflections still go to Gemini (nobody there).
            with pytest.raises(ProviderError, match="Gemini"):
                await tell_and_end(memory)
            assert fast.calls_for("fact_extraction")
            assert await facts_in(memory) == []  # a failed formation writes nothing


async def test_the_usage_meter_counts_the_configured_embedder(settings: Settings) -> None:
    container = Container(config=settings(embedder="fake"))
    container.llms.override(providers.Object({role: scripted() for role in ModelRole}))
    async with running(container) as memory:
        await tell_and_end(memory)
    usage = container.meter().snapshot()
    assert usage.embeddings["fake-hash"].texts >= 1


@pytest.mark.parametrize("as_text", [True, False])
async def test_a_path_given_as_the_store_is_the_embedded_store_there(
    settings: Settings, tmp_path: Path, as_text: bool
) -> None:
    path = tmp_path / "x.db"
    where = str(path) if as_text else path
    async with open_memory(settings(store="memory"), llm=scripted(), store=where) as memory:
        assert isinstance(memory.admin.stores.facts, SqliteFacts)
        await tell_and_end(memory)
    async with open_memory(settings(), llm=scripted(), store=where) as memory:
        assert await facts_in(memory) == ["Alice's order is 4417."]
    assert path.exists()


async def test_something_else_given_as_the_store_is_a_clear_error(settings: Settings) -> None:
    refused = re.escape(
        "store must be a Stores (memory_stores(), open_sqlite(path), mongo_stores(db)) "
        "or the path of an embedded store file, got int"
    )
    with pytest.raises(ConfigurationError, match=refused):
        async with open_memory(settings(), store=42):  # type: ignore[arg-type]
            pass


@pytest.mark.parametrize(("entries", "embedded"), [(1024, 1), (0, 2)])
async def test_a_repeated_query_is_embedded_once_unless_the_cache_is_off(
    settings: Settings, entries: int, embedded: int
) -> None:
    embedder = FakeEmbedder()
    memory_settings = MemorySettings(search=SearchSettings(query_cache_entries=entries))
    config = settings(memory=memory_settings)
    async with open_memory(config, llm=scripted(), embedder=embedder) as memory:
        chat = memory.conversation(AGENT, "s1", ["alice"])
        before = embedder.calls
        await memory.search_facts(chat, ["Alice's order"])
        await memory.search_facts(chat, ["Alice's order"])
        assert embedder.calls - before == embedded
