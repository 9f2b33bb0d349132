"""The calibrated floors on the real offline model: paraphrases found, noise kept out.

The recorded calibration of all-MiniLM-L6-v2 must be what measuring gives, and with it a
three-fact store answers a question in other words, and dedup offers a restated or
contradicted fact to its judge but not an unrelated one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from eden_memory.adapters.embedders.local import LocalEmbedder, load_model
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.search.calibration import measure
from eden_memory.application.service import MemoryService
from eden_memory.domain.calibration import RECORDED
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world


@pytest.fixture(scope="module")
def model() -> Any:
    return load_model()


async def test_the_recorded_floors_are_what_measuring_gives(model: Any) -> None:
    measured = await measure(LocalEmbedder(model))
    recorded = RECORDED["all-MiniLM-L6-v2"]
    assert measured.search_floor == pytest.approx(recorded.search_floor, abs=2e-3)
    assert measured.dedup_floor == pytest.approx(recorded.dedup_floor, abs=2e-3)


THREE_FACTS = {
    "m0": [("Alice's email is alice@example.com", "user")],
    "m1": [("Alice works at Acme Corp", "user")],
    "m2": [("The Mars festival budget is 50000 dollars", "agent")],
}


@pytest.fixture
async def three_facts(model: Any, tmp_path: Path) -> AsyncIterator[tuple[MemoryService, Any]]:
    """The embedded default as a new user meets it: a store file, the offline model."""
    store = await open_sqlite(tmp_path / "memory.db")
    world = make_world(Story(facts=THREE_FACTS))
    memory = MemoryService(store, LocalEmbedder(model), world.llm, world.clock)
    conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    await memory.record_messages(conv, world.messages(*THREE_FACTS))
    await memory.end_session(conv)  # forms even fewer messages than a formation needs
    assert len(await memory.admin.list_facts("nova")) == 3
    yield memory, conv
    await memory.aclose()
    await store.close()


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is my email?", "Alice's email is alice@example.com"),
        (
            "How much money do we have for the festival?",
            "The Mars festival budget is 50000 dollars",
        ),
    ],
)
async def test_a_paraphrased_question_finds_its_fact_in_a_three_fact_store(
    three_facts: tuple[MemoryService, Any], question: str, answer: str
) -> None:
    memory, conv = three_facts
    found = await memory.search_facts(conv, [question])
    assert found.results
    assert found.results[0].fact.content == answer


async def test_an_unrelated_question_finds_nothing(three_facts: tuple[MemoryService, Any]) -> None:
    memory, conv = three_facts
    found = await memory.search_facts(conv, ["What is the capital of France?"])
    assert found.results == []


@pytest.mark.parametrize(
    ("stored", "new", "candidate"),
    [
        ("Alice works at Acme Corp", "Alice is employed by Acme Corporation", True),
        ("Alice's email is alice@example.com", "Alice's email address is alice@example.com", True),
        ("The festival budget is 50000 dollars", "The festival budget is now 60000 dollars", True),
        ("Alice works at Acme Corp", "The festival takes place in Lyon in June", False),
        ("Alice's email is alice@example.com", "Bob prefers green tea", False),
    ],
)
async def test_dedup_offers_restatements_and_contradictions_not_unrelated_facts(
    model: Any, stored: str, new: str, candidate: bool
) -> None:
    embedder = LocalEmbedder(model)
    a, b = (await embedder.embed([stored, new], TextRole.PASSAGE)).vectors
    similarity = sum(x * y for x, y in zip(a, b, strict=True))
    floor = RECORDED["all-MiniLM-L6-v2"].dedup_floor
    assert (similarity >= floor) is candidate, similarity
