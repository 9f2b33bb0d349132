"""One embedding space per store: an embedder of another model is refused on every vector path.

The world's store holds facts embedded by ``keyword-hash`` (256 dimensions); a second service
over the same store uses ``keyword-other``, also 256 dimensions, so only the model name tells
the two apart. Every path that writes or compares vectors must refuse it, with an error that
names both models and the command that re-embeds; only ``reembed`` moves the store.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from eden_memory.application.search import SearchMode
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import EdenMemoryError, EmbeddingSpaceError
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.scopes import AgentMemoryConfig, Scope
from eden_memory.domain.settings import DedupSettings, MemorySettings
from eden_memory.testing import KeywordEmbedder
from tests.application.story import START, World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")
STORED, OTHER = "keyword-hash", "keyword-other"
FIRST = (
    "my email is alice@example.com",
    "I work at Acme Corp",
    "please keep answers short",
    "the Mars festival budget is 50000 dollars",
)
SECOND = (
    "I am now the CTO at Acme Corp",
    "correction: the Mars festival budget is 60000 dollars",
    "actually, longer answers are fine now",
    "let us draft the poster",
)
# Its one fact merges into a stored one: the formation's only write is an update.
UPDATE_ONLY = ("I am now the CTO at Acme Corp", "let us draft the poster", "ok", "thanks")


async def _formed() -> World:
    """Facts of agent nova, embedded by the world's ``keyword-hash`` embedder."""
    world = make_world(STORY)
    assert world.embedder.space.model == STORED
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST))
    await world.memory.form_memories(conv)
    return world


def _other(world: World, settings: MemorySettings | None = None) -> MemoryService:
    """A service over the same store whose embedder has another model, same dimension."""
    embedder = KeywordEmbedder(dimension=world.embedder.space.dimension, model=OTHER)
    return MemoryService(world.stores, embedder, world.llm, world.clock, settings)


def _calls(memory: MemoryService) -> int:
    """Embedding calls the service made (its meter counts every call, failed ones too)."""
    return memory.admin.meter.snapshot().embedding_total.calls


def _names_both_and_the_way_out(error: EmbeddingSpaceError) -> None:
    assert isinstance(error, EdenMemoryError)
    text = str(error)
    assert STORED in text
    assert OTHER in text
    assert "eden-memory reembed" in text


async def _snapshot(world: World) -> list[tuple[Any, ...]]:
    facts = await world.memory.admin.list_facts("nova", status=None, limit=1000)
    return sorted((f.id, f.content, f.version, f.embedding_model) for f in facts)


async def test_search_with_another_model_of_the_same_dimension_is_refused() -> None:
    world = await _formed()
    other = _other(world)
    conv = other.conversation(AGENT, "s2", ["alice"])
    with pytest.raises(EmbeddingSpaceError) as caught:
        await other.search_facts(conv, ["where does Alice work"])
    _names_both_and_the_way_out(caught.value)
    for mode in (SearchMode.SEMANTIC, SearchMode.HYBRID):
        with pytest.raises(EmbeddingSpaceError):
            await other.search_facts(conv, ["Acme"], mode=mode)
    # Keyword search compares no vectors: it still answers.
    found = await other.search_facts(conv, ["Acme"], mode=SearchMode.KEYWORD)
    assert [r.fact.content for r in found.results] == ["Alice works at Acme Corp"]


@pytest.mark.parametrize("said", [SECOND, UPDATE_ONLY], ids=["adds", "update-only"])
async def test_a_formation_with_another_model_writes_nothing_and_keeps_its_messages(
    said: tuple[str, ...],
) -> None:
    world = await _formed()
    before = await _snapshot(world)
    for dedup in (True, False):  # dedup compares vectors; without it, adding writes them
        other = _other(world, MemorySettings(dedup=DedupSettings(enabled=dedup)))
        conv = other.conversation(AGENT, f"s-{dedup}", ["alice"])
        await other.record_messages(conv, world.messages(*said), background=False)
        decisions = len(world.llm.calls_for("dedup"))
        with pytest.raises(EmbeddingSpaceError) as caught:
            await other.form_memories(conv)
        _names_both_and_the_way_out(caught.value)
        assert len(world.llm.calls_for("dedup")) == decisions  # refused before deciding
        state = await world.stores.sessions.get_session(AgentId("nova"), SessionId(f"s-{dedup}"))
        assert state is not None
        assert state.pending_messages == len(said)
        assert state.claim_id is None  # given back: the right embedder forms them later
    assert await _snapshot(world) == before


async def test_adding_facts_with_another_model_is_refused_before_embedding() -> None:
    world = await _formed()
    other = _other(world)
    item = {"content": "Alice likes tea", "agent_id": "nova", "user_id": "alice"}
    with pytest.raises(EmbeddingSpaceError) as caught:
        await other.admin.add_facts([{**item, "formed_at": START}])
    _names_both_and_the_way_out(caught.value)
    assert _calls(other) == 0
    assert "Alice likes tea" not in {c for _, c, _, _ in await _snapshot(world)}


async def test_editing_a_fact_with_another_model_is_refused_and_changes_nothing() -> None:
    world = await _formed()
    before = await _snapshot(world)
    other = _other(world)
    fact = next(f for f in await other.admin.list_facts("nova") if "Acme" in f.content)
    with pytest.raises(EmbeddingSpaceError) as caught:
        await other.admin.edit_fact(
            "nova", fact.id, "Alice works at Globex", expected_version=fact.version
        )
    _names_both_and_the_way_out(caught.value)
    assert _calls(other) == 0
    assert await _snapshot(world) == before


async def test_importing_with_another_model_is_refused_before_anything_is_written() -> None:
    world = await _formed()
    lines = [line async for line in world.memory.admin.export("nova")]
    target = make_world(STORY)
    await target.memory.admin.add_facts(
        [{"content": "Orbit ships on Fridays", "agent_id": "orbit", "scope": Scope.AGENT,
          "formed_at": START}]
    )  # fmt: skip
    other = _other(target)
    with pytest.raises(EmbeddingSpaceError) as caught:
        await other.admin.import_lines(lines)
    _names_both_and_the_way_out(caught.value)
    assert _calls(other) == 0
    assert await target.memory.admin.list_facts("nova") == []
    assert await target.memory.admin.list_reflections("nova", include_absorbed=True) == []


async def test_reembedding_moves_the_store_to_the_new_model_and_the_old_one_is_refused() -> None:
    world = await _formed()
    other = _other(world)
    assert await other.admin.reembed(["nova"]) == 3
    assert {m for _, _, _, m in await _snapshot(world)} == {OTHER}
    conv = other.conversation(AGENT, "s2", ["alice"])
    found = await other.search_facts(conv, ["Alice works at Acme Corp"])
    assert found.results[0].fact.content == "Alice works at Acme Corp"
    with pytest.raises(EmbeddingSpaceError):  # the store has moved on
        await world.memory.search_facts(conv, ["Acme"])


async def test_an_edit_records_the_model_that_embedded_it() -> None:
    """A fact the re-embedding has not reached yet (another agent's) moves with its edit."""
    world = await _formed()
    await world.memory.admin.add_facts(
        [{"content": "Orbit ships on Fridays", "agent_id": "orbit", "scope": Scope.AGENT,
          "formed_at": START}]
    )  # fmt: skip
    other = _other(world)
    await other.admin.reembed(["nova"])  # the store is now OTHER's; orbit's fact is not moved yet
    [unmoved] = await other.admin.list_facts("orbit")
    assert unmoved.embedding_model == STORED
    edited = await other.admin.edit_fact(
        "orbit", unmoved.id, "Orbit ships on Mondays", expected_version=unmoved.version
    )
    assert edited.embedding_model == OTHER
    assert await other.admin.get_fact("orbit", unmoved.id) == edited
    conv = other.conversation(AgentMemoryConfig("orbit"), "o1", ["bob"])
    found = await other.search_facts(conv, ["Orbit ships on Mondays"], mode=SearchMode.SEMANTIC)
    assert [r.fact.id for r in found.results] == [unmoved.id]


async def test_a_merged_fact_records_the_model_that_embedded_it() -> None:
    world = await _formed()
    other = _other(world)
    await other.admin.reembed(["nova"])
    world.clock.advance(hours=1)
    conv = other.conversation(AGENT, "s2", ["alice"])
    await other.record_messages(conv, world.messages(*SECOND), background=False)
    report = await other.form_memories(conv)
    assert report is not None
    [merged_id] = report.facts_updated
    merged = await other.admin.get_fact("nova", merged_id)
    assert merged.version == 2
    assert merged.content == "Alice works at Acme Corp as CTO since March"
    assert merged.embedding_model == OTHER
    assert merged.updated_at == START + timedelta(hours=1)


async def test_an_empty_store_takes_any_model() -> None:
    world = make_world(STORY)
    other = _other(world)
    report = await other.admin.add_facts(
        [{"content": "Alice likes tea", "agent_id": "nova", "user_id": "alice",
          "formed_at": START}]
    )  # fmt: skip
    assert len(report.added) == 1
    assert await world.stores.facts.embedding_space() == other.admin.embedder.space


async def test_an_import_embeds_again_the_facts_a_reembedding_has_not_reached() -> None:
    """An export taken mid-way holds facts of the old model under the new model's header."""
    world = await _formed()
    await world.memory.admin.add_facts(
        [{"content": "Orbit ships on Fridays", "agent_id": "orbit", "scope": Scope.AGENT,
          "formed_at": START}]
    )  # fmt: skip
    other = _other(world)
    await other.admin.reembed(["nova"])  # orbit's fact is still embedded by the old model
    lines = [line async for line in other.admin.export("orbit")]
    target = make_world(STORY)
    importer = _other(target)
    report = await importer.admin.import_lines(lines)
    assert (report.facts, report.facts_reembedded) == (1, 1)
    assert await target.stores.facts.embedding_space() == importer.admin.embedder.space
    [fact] = await importer.admin.list_facts("orbit")
    assert fact.embedding_model == OTHER
