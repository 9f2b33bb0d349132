"""Index definitions (golden) and ``setup_indexes``: idempotent, waits, reports."""

from __future__ import annotations

import json
from typing import Any

import pytest

from eden_memory.adapters.stores.mongo import (
    CollectionNames,
    IdMode,
    MongoStoreOptions,
    index_definitions,
    setup_indexes,
)
from eden_memory.adapters.stores.mongo.compat import Driver
from eden_memory.adapters.stores.mongo.index_setup import same_regular
from eden_memory.adapters.stores.mongo.indexes import TEXT_FALLBACK, text_index, vector_index
from tests.unit.adapters.mongo.builders import axis, fact, mongomock_store
from tests.unit.adapters.mongo.fake_atlas import Atlas, FakeAtlasDatabase

Doc = dict[str, Any]
FILTERS = ["agent_id", "user_id", "scope", "status", "embedding_model"]


@pytest.mark.parametrize("dimension", [1536, 384])
def test_the_vector_index_is_cosine_at_the_embedders_dimension(dimension: int) -> None:
    spec = vector_index(dimension, MongoStoreOptions())
    assert (spec.name, spec.type, spec.collection) == (
        "memory2_fact_vector",
        "vectorSearch",
        "facts",
    )
    assert spec.definition == {
        "fields": [
            {
                "type": "vector",
                "path": "embedding",
                "numDimensions": dimension,
                "similarity": "cosine",
            },
            *({"type": "filter", "path": path} for path in FILTERS),
        ]
    }


def test_the_text_index_analyses_content_as_english_and_keeps_filter_fields_exact() -> None:
    spec = text_index(MongoStoreOptions())
    assert (spec.name, spec.type) == ("memory2_fact_text", "search")
    assert spec.definition == {
        "mappings": {
            "dynamic": False,
            "fields": {
                "content": {"type": "string", "analyzer": "lucene.english"},
                "agent_id": {"type": "token"},
                "user_id": {"type": "token"},
                "scope": {"type": "token"},
                "status": {"type": "token"},
            },
        }
    }


def test_object_id_mode_indexes_owner_fields_as_object_ids() -> None:
    fields = text_index(MongoStoreOptions(id_mode=IdMode.OBJECT_ID)).definition["mappings"][
        "fields"
    ]
    assert fields["agent_id"] == fields["user_id"] == {"type": "objectId"}


def test_duplicates_are_unique_per_scope_key_among_active_facts() -> None:
    [unique] = [d for d in index_definitions(1536) if d["name"] == "fact_active_hash"]
    assert unique == {
        "collection": "memory2_facts",
        "key": {"agent_id": 1, "user_id": 1, "scope": 1, "content_hash": 1},
        "name": "fact_active_hash",
        "unique": True,
        "partialFilterExpression": {"status": "active"},
    }


def test_a_dry_run_returns_every_definition_and_touches_nothing() -> None:
    names = {(d["collection"], d["name"]) for d in index_definitions(8)}
    assert ("memory2_facts", "memory2_fact_vector") in names
    assert ("memory2_facts", "memory2_fact_text") in names
    assert ("memory2_consolidated", "consolidated_key") in names
    assert ("memory2_sessions", "session_cold") in names


async def test_dry_run_needs_no_database() -> None:
    report = await setup_indexes(None, 1536, dry_run=True)
    assert report.dry_run
    assert report.definitions == index_definitions(1536)
    assert not report.created
    assert json.loads(report.definitions_json()) == report.definitions


def test_a_prefix_renames_every_collection() -> None:
    options = MongoStoreOptions(collections=CollectionNames(prefix="bot7_"))
    assert {d["collection"] for d in index_definitions(8, options)} == {
        "bot7_facts",
        "bot7_reflections",
        "bot7_consolidated",
        "bot7_sessions",
        "bot7_messages",
        "bot7_revisions",
        "bot7_contexts",
    }


async def test_setup_without_atlas_search_skips_search_indexes_and_is_idempotent() -> None:
    database = mongomock_store().ctx.driver.database
    first = await setup_indexes(database, 8)
    assert "memory2_facts.fact_active_hash" in first.created
    assert "memory2_facts.fact_content_text" in first.created
    assert "no Atlas Search" in first.skipped["memory2_facts.memory2_fact_vector"]
    again = await setup_indexes(database, 8)
    assert not again.created
    assert set(again.kept) == set(first.created)
    listed = await Driver(database).list_indexes(database["memory2_facts"])
    assert {"fact_active_hash", "fact_owner_recent"} <= {i["name"] for i in listed}


async def test_an_index_with_our_name_but_another_definition_is_reported_not_dropped() -> None:
    database = mongomock_store().ctx.driver.database
    await database["memory2_sessions"].create_index([("other", 1)], name="session_users")
    report = await setup_indexes(database, 8)
    assert "another definition" in report.skipped["memory2_sessions.session_users"]


async def test_on_atlas_search_indexes_are_created_and_awaited_until_queryable() -> None:
    atlas = Atlas(queryable_after_lists=2)
    report = await setup_indexes(FakeAtlasDatabase(atlas), 1536, poll_seconds=0.0)
    assert {"memory2_facts.memory2_fact_vector", "memory2_facts.memory2_fact_text"} <= set(
        report.created
    )
    assert report.ready
    assert all(i["queryable"] for i in atlas.indexes)


async def test_search_indexes_still_building_at_the_deadline_are_reported_pending() -> None:
    atlas = Atlas(queryable_after_lists=1000)
    report = await setup_indexes(
        FakeAtlasDatabase(atlas), 1536, timeout_seconds=0.0, poll_seconds=0.0
    )
    assert not report.ready
    assert set(report.pending) == {
        "memory2_facts.memory2_fact_vector",
        "memory2_facts.memory2_fact_text",
    }
    assert any(line.startswith("pending") for line in report.lines())


async def test_a_new_embedding_dimension_updates_the_vector_index_in_place() -> None:
    atlas = Atlas()
    database = FakeAtlasDatabase(atlas)
    await setup_indexes(database, 1536, poll_seconds=0.0)
    report = await setup_indexes(database, 384, poll_seconds=0.0)
    assert report.updated == ["memory2_facts.memory2_fact_vector"]
    assert report.kept.count("memory2_facts.memory2_fact_text") == 1
    [vector] = [i for i in atlas.indexes if i["name"] == "memory2_fact_vector"]
    assert vector["latestDefinition"]["fields"][0]["numDimensions"] == 384


async def test_a_store_creates_its_regular_indexes_on_first_use_unless_told_not_to() -> None:
    for ensure, expected in ((True, True), (False, False)):
        store = mongomock_store(MongoStoreOptions(ensure_indexes=ensure))
        await store.facts.add_facts([fact("Alice likes tea")], [axis(0)])
        facts = store.ctx.driver.database["memory2_facts"]
        names = {i["name"] for i in await store.ctx.driver.list_indexes(facts)}
        assert ("fact_active_hash" in names) is expected


def listed_text_index(language: str) -> Doc:
    """A text index as mongod lists it (mongomock lists no language)."""
    return {
        "v": 2,
        "key": {"_fts": "text", "_ftsx": 1},
        "name": "fact_content_text",
        "default_language": language,
        "language_override": "language",
        "weights": {"content": 1},
        "textIndexVersion": 3,
    }


def test_a_text_index_without_stemming_is_another_definition() -> None:
    """Releases before stemming made the fallback's text index with language "none"."""
    assert same_regular(TEXT_FALLBACK, listed_text_index("english"))
    assert not same_regular(TEXT_FALLBACK, listed_text_index("none"))
    assert TEXT_FALLBACK.options()["default_language"] == "english"
