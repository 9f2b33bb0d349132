"""Every path that embeds says what its texts are: a search's queries as ``QUERY``, a fact as
``PASSAGE`` however it is written (ingestion, formation, edits, erasure, re-embedding, import).

The asymmetric fake embeds a query apart from a stored text (cosine about 0.7 between the
two vectors of one text), so a fact embedded in the wrong role shows in the vector the store
keeps; the embedders' role counts show what each call said.
"""

from __future__ import annotations

import pytest

from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.search import SearchMode
from eden_memory.application.search.calibration import measure
from eden_memory.application.search.calibration_set import QUESTIONS, SAME_ATTRIBUTE
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import AgentId
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.ports.stores import FactQuery, Stores
from eden_memory.testing import FakeClock, ScriptedLLM, memory_stores
from tests.application.story import START, make_world
from tests.application.test_embedding_space import FIRST, SECOND
from tests.application.test_erasure_by_origin import _world as erasure_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")
FACTS = ("Alice likes green tea", "Bob moved to Lisbon in May")
PASSAGE_ONLY = {TextRole.PASSAGE}


def _service(embedder: FakeEmbedder, stores: Stores | None = None) -> MemoryService:
    return MemoryService(stores or memory_stores(), embedder, ScriptedLLM([]), FakeClock(START))


async def _added(memory: MemoryService, *contents: str) -> None:
    items = [
        FactInput(content=c, agent_id="nova", user_id="alice", formed_at=START) for c in contents
    ]
    await memory.admin.add_facts(items)


async def _stored_as_passages(memory: MemoryService, embedder: FakeEmbedder) -> int:
    """How many of nova's facts the store keeps with their text's passage vector, asserting
    that every one does."""
    facts = await memory.admin.stores.fact_records.list_facts(FactQuery(AgentId("nova"), limit=100))
    vectors = await memory.admin.stores.facts.get_vectors([f.id for f in facts])
    for fact in facts:
        assert vectors[fact.id] == pytest.approx(embedder.vector(fact.content), abs=1e-6)
    return len(facts)


async def test_a_search_embeds_its_queries_as_queries() -> None:
    embedder = FakeEmbedder(dimension=1024, asymmetric=True)
    memory = _service(embedder)
    await _added(memory, *FACTS)
    embedder.texts_by_role.clear()

    conv = memory.conversation(AGENT, "s1", ["alice"])
    found = await memory.search_facts(conv, [FACTS[0]], mode=SearchMode.SEMANTIC, thresholds=False)

    assert dict(embedder.texts_by_role) == {TextRole.QUERY: 1}
    best = found.results[0]
    assert best.fact.content == FACTS[0]
    # A query against its own text's passage: about 1/sqrt(2), never the 1.0 of two passages.
    assert best.semantic_score == pytest.approx(2**-0.5, abs=0.1)


async def test_added_facts_are_embedded_as_passages() -> None:
    embedder = FakeEmbedder(asymmetric=True)
    memory = _service(embedder)
    await _added(memory, *FACTS)
    assert set(embedder.texts_by_role) == PASSAGE_ONLY
    assert await _stored_as_passages(memory, embedder) == len(FACTS)


async def test_an_edited_fact_is_embedded_as_a_passage() -> None:
    embedder = FakeEmbedder(asymmetric=True)
    memory = _service(embedder)
    await _added(memory, FACTS[0])
    [fact] = await memory.admin.list_facts("nova")
    await memory.admin.edit_fact("nova", fact.id, "Alice likes black tea", expected_version=1)
    assert set(embedder.texts_by_role) == PASSAGE_ONLY
    assert await _stored_as_passages(memory, embedder) == 1


async def test_a_reembedding_embeds_every_fact_as_a_passage() -> None:
    stores = memory_stores()
    await _added(_service(FakeEmbedder(model="fake-before"), stores), *FACTS)
    embedder = FakeEmbedder(asymmetric=True)
    memory = _service(embedder, stores)
    assert await memory.admin.reembed(["nova"]) == len(FACTS)
    assert dict(embedder.texts_by_role) == {TextRole.PASSAGE: len(FACTS)}
    assert await _stored_as_passages(memory, embedder) == len(FACTS)


async def test_an_import_embeds_its_facts_again_as_passages() -> None:
    source = _service(FakeEmbedder(model="fake-before"))
    await _added(source, *FACTS)
    lines = [line async for line in source.admin.export("nova")]
    embedder = FakeEmbedder(asymmetric=True)
    target = _service(embedder)
    await target.admin.import_lines(lines)
    assert dict(embedder.texts_by_role) == {TextRole.PASSAGE: len(FACTS)}
    assert await _stored_as_passages(target, embedder) == len(FACTS)


async def test_a_formation_embeds_only_passages_new_facts_and_rewritten_ones() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST))
    await world.memory.form_memories(conv)
    world.clock.advance(days=1)
    await world.memory.record_messages(conv, world.messages(*SECOND))
    report = await world.memory.form_memories(conv)
    assert report is not None
    assert report.decisions.get("UPDATE", 0) >= 1  # a rewritten text was embedded too
    assert set(world.embedder.texts_by_role) == PASSAGE_ONLY


async def test_an_erasure_embeds_the_facts_it_rewords_as_passages() -> None:
    world = await erasure_world(memory_stores())
    world.embedder.texts_by_role.clear()
    report = await world.memory.admin.erase_user("nova", "alice")
    assert report.facts_reverted  # a fact went back to bob's words, embedded again
    assert dict(world.embedder.texts_by_role) == {TextRole.PASSAGE: len(report.facts_reverted)}


async def test_calibration_embeds_questions_as_queries_and_facts_as_passages() -> None:
    embedder = FakeEmbedder(model="fake-uncalibrated")
    await measure(embedder)
    facts = {f for _, f in QUESTIONS} | {t for pair in SAME_ATTRIBUTE for t in pair}
    assert dict(embedder.texts_by_role) == {
        TextRole.QUERY: len({q for q, _ in QUESTIONS}),
        TextRole.PASSAGE: len(facts),
    }
