"""A migration into a store of another embedding model is refused before it writes anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from eden_memory.adapters.migration import JsonFileJournal, MongoV1Source
from eden_memory.application.migration import MigrationOptions, migrate_v1
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import EmbeddingSpaceError
from eden_memory.domain.ids import AgentId
from eden_memory.ports.stores import FactQuery
from eden_memory.testing import FakeEmbedder, KeywordEmbedder, memory_stores
from tests.migration.helpers import run, snapshot
from tests.migration.v1_data import AGENT_A_ID, NOW


async def test_a_store_of_another_model_is_refused_before_anything_is_written(
    source: MongoV1Source, tmp_path: Path
) -> None:
    store = memory_stores()
    await run(source, store, tmp_path / "first")  # the store is now keyword-hash's
    before = await snapshot(store)
    other = KeywordEmbedder(model="keyword-other")  # same dimension, another model
    journal = tmp_path / "second"
    with pytest.raises(EmbeddingSpaceError, match="keyword-other") as caught:
        await migrate_v1(source, store, other, JsonFileJournal(journal), MigrationOptions(), NOW)
    assert "keyword-hash" in str(caught.value)
    assert "eden-memory reembed" in str(caught.value)
    assert other.calls == 0
    assert await snapshot(store) == before
    assert not journal.exists() or not any(journal.iterdir())


async def test_migrated_facts_are_embedded_as_passages(
    source: MongoV1Source, tmp_path: Path
) -> None:
    store = memory_stores()
    embedder = FakeEmbedder(asymmetric=True)  # a query's vector would differ from a fact's
    journal = JsonFileJournal(tmp_path)
    await migrate_v1(source, store, embedder, journal, MigrationOptions(), NOW)
    assert set(embedder.texts_by_role) == {TextRole.PASSAGE}
    facts = await store.fact_records.list_facts(FactQuery(AgentId(AGENT_A_ID), limit=100))
    vectors = await store.facts.get_vectors([f.id for f in facts])
    assert facts
    for fact in facts:
        assert vectors[fact.id] == pytest.approx(embedder.vector(fact.content), abs=1e-6)
