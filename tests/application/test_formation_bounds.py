"""What one formation may write is bounded, scales with the conversation, and is counted.

A model that answers 10,000 facts for four messages, or a 10 MB answer (issue 26): the first
facts and notes up to the formation's cap are kept, the rest counted in the report and
logged once; an answer over the size bound is refused unparsed, its messages kept to be
formed again. On every store.
"""

from __future__ import annotations

import json
import time
import tracemalloc
from typing import Any

import pytest

from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.domain.formation_caps import FormationCaps
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import FormationSettings, MemorySettings, ModelSettings
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM
from tests.application.stores import StoreMaker
from tests.application.story import START

AGENT = AgentMemoryConfig("nova")
# Formed only when the test says so (end_session), whatever the messages' length.
BY_HAND = MemorySettings(formation=FormationSettings(message_interval=10**6, token_interval=1e12))
SHORT = ("I collect stamps", "my album is big", "I have many rare ones", "they are numbered")
SHORT_CAPS = FormationCaps(facts=15, notes_per_scope=2)  # the clamp's floor: half the base


def facts(count: int) -> list[dict[str, Any]]:
    return [
        {"content": f"Alice owns the rare stamp number {i}", "scope": "user", "source_messages": []}
        for i in range(count)
    ]


def notes(level: str, count: int) -> list[str]:
    # An agent note names no user: one that does is moved to that user's memory.
    who = "The club" if level == "agent" else "Alice"
    return [f"{who} wants the {level} stamp list number {i} kept" for i in range(count)]


def model(fact_answer: Any, note_count: int = 0) -> ScriptedLLM:
    return ScriptedLLM(
        by_purpose={
            "fact_extraction": lambda request, schema: fact_answer,
            "reflection_extraction": lambda request, schema: {
                level: notes(level, note_count) for level in ("agent", "user", "session")
            },
            "dedup": lambda request, schema: {"decisions": []},
            "consolidation": lambda request, schema: {"content": "Alice collects stamps."},
        }
    )


def service(stores: Stores, llm: ScriptedLLM, settings: MemorySettings = BY_HAND) -> MemoryService:
    return MemoryService(stores, KeywordEmbedder(), llm, FakeClock(START), settings)


def said(*texts: str, session: str = "s1") -> list[Message]:
    return [
        Message(
            id=f"{session}-m{i}",
            role=Role.USER,
            text=text,
            sent_at=START.replace(minute=i),
            author_id="alice",
        )
        for i, text in enumerate(texts)
    ]


async def formed(memory: MemoryService, session: str, texts: tuple[str, ...]) -> FormationReport:
    conversation = memory.conversation(AGENT, session, ["alice"])
    await memory.record_messages(conversation, said(*texts, session=session))
    report = await memory.end_session(conversation)
    assert report is not None
    return report


async def stored(memory: MemoryService, session: str | None = None) -> list[str]:
    listed = await memory.admin.list_facts("nova", limit=100_000)
    return [f.content for f in listed if session is None or f.source_session_id == session]


async def test_ten_thousand_facts_for_four_messages_keep_the_first_ones_up_to_the_cap(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    memory = service(await make_store(), model({"facts": facts(10_000)}))

    report = await formed(memory, "s1", SHORT)

    expected = [f["content"] for f in facts(SHORT_CAPS.facts)]
    assert sorted(await stored(memory)) == sorted(expected)
    assert report.facts_extracted == SHORT_CAPS.facts
    assert report.facts_capped == 10_000 - SHORT_CAPS.facts
    assert len(report.facts_added) == SHORT_CAPS.facts  # ids
    assert report.usage.texts_embedded <= SHORT_CAPS.facts  # the cost is bounded too
    warnings = [r.getMessage() for r in caplog.records if "past the cap" in r.getMessage()]
    assert warnings == ["formation of nova/s1: 9985 facts past the cap of 15 not kept"]


async def test_a_longer_conversation_keeps_more_facts_within_the_clamp(
    make_store: StoreMaker,
) -> None:
    sizes = {"short": SHORT, "long": ("Alice talks of stamps. " * 130,) * 4}
    sizes["longest"] = ("Alice talks of stamps. " * 2000,) * 4  # 184,000 characters
    kept = {}
    for name, texts in sizes.items():  # each on its own store: the same answer every time
        memory = service(await make_store(), model({"facts": facts(10_000)}))
        report = await formed(memory, name, texts)
        kept[name] = len(await stored(memory))
        assert report.facts_capped == 10_000 - kept[name]

    # 12,000 characters: log10(4) + 1 = 1.6 times the base of 30; past 30,000: twice.
    assert kept == {"short": 15, "long": 48, "longest": 60}


async def test_each_level_keeps_its_first_notes_up_to_the_cap_and_counts_the_rest(
    make_store: StoreMaker,
) -> None:
    memory = service(await make_store(), model({"facts": []}, note_count=1000))

    report = await formed(memory, "s1", SHORT)

    cap = SHORT_CAPS.notes_per_scope
    listed = await memory.admin.list_reflections("nova", include_absorbed=True)
    for level in ("agent", "user", "session"):
        assert [n.content for n in listed if n.scope == level] == notes(level, cap)
    assert report.reflections == {"agent": cap, "user": cap, "session": cap}
    assert report.reflections_capped == {"agent": 998, "user": 998, "session": 998}
    assert report.reflections_rejected == []


def huge_answer() -> str:
    """About 10 MB of JSON: 200,000 facts."""
    text = json.dumps({"facts": facts(200_000)})
    assert len(text) > 10_000_000
    return text


async def test_a_ten_megabyte_answer_is_refused_unparsed_and_nothing_is_lost(
    make_store: StoreMaker,
) -> None:
    stores = await make_store()
    answer = huge_answer()
    memory = service(stores, model(answer))
    conversation = memory.conversation(AGENT, "s1", ["alice"])
    await memory.record_messages(conversation, said(*SHORT))

    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(InvalidLLMOutputError, match="over the bound of 262144"):
            await memory.end_session(conversation)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    # Parsing it would take minutes and about a gigabyte (issue 26); refusing it, a moment.
    assert time.perf_counter() - started < 10
    assert peak < 20_000_000
    assert await stored(memory) == []
    state = await stores.sessions.get_session("nova", "s1")  # type: ignore[arg-type]
    assert state is not None
    assert (state.pending_messages, state.claim_id) == (4, None)
    # The messages wait for a model that answers sensibly: formed then, nothing lost.
    sane = service(stores, model({"facts": facts(3)}))
    report = await sane.end_session(sane.conversation(AGENT, "s1", ["alice"]))
    assert report is not None
    assert report.messages == 4
    assert len(await stored(sane)) == 3


@pytest.mark.parametrize(
    ("models", "refused"),
    [(ModelSettings(), True), (ModelSettings(max_answer_chars=1_000_000), False)],
)
async def test_the_bound_on_an_answer_is_a_setting(
    make_store: StoreMaker, models: ModelSettings, refused: bool
) -> None:
    answer = json.dumps({"facts": facts(10_000)})  # over the default bound, under a raised one
    assert 262_144 < len(answer) < 1_000_000
    settings = BY_HAND.model_copy(update={"models": models})
    memory = service(await make_store(), model(answer), settings)

    if refused:
        with pytest.raises(InvalidLLMOutputError, match="characters, over the bound"):
            await formed(memory, "s1", SHORT)
        assert await stored(memory) == []
    else:
        report = await formed(memory, "s1", SHORT)
        assert report.facts_capped == 10_000 - SHORT_CAPS.facts
