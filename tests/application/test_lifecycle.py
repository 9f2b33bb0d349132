"""Lifecycle: cold sessions from several workers, and the model chosen per role and tier."""

from __future__ import annotations

import asyncio

from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")


async def test_cold_sessions_are_formed_once_even_by_several_workers() -> None:
    world = make_world(STORY)
    for n in range(6):
        conv = world.memory.conversation(AGENT, f"s{n}", [f"user{n}"])
        await world.memory.record_messages(
            conv, world.messages("I work at Acme Corp", "a", "b", "c", author=f"user{n}")
        )
    world.clock.advance(minutes=9)
    assert await world.memory.process_cold_sessions() == []  # not quiet long enough yet
    world.clock.advance(minutes=2)
    workers = [
        MemoryService(world.stores, world.embedder, world.llm, world.clock) for _ in range(4)
    ]
    reports = await asyncio.gather(*(w.process_cold_sessions() for w in workers))
    formed = sorted(r.session_id for batch in reports for r in batch)
    assert formed == [f"s{n}" for n in range(6)]
    assert len(world.llm.calls_for("fact_extraction")) == 6


async def test_premium_users_get_the_strong_reflection_model_and_facts_the_fast_one() -> None:
    world = make_world(STORY)
    for tier, session in ((0, "free"), (1, "premium")):
        conv = world.memory.conversation(AGENT, session, ["alice"], tier=tier)
        await world.memory.record_messages(
            conv, world.messages("please keep answers short", "a", "b", "c")
        )
        await world.memory.form_memories(conv)
    models = [(r.purpose, r.model) for r in world.llm.requests if r.purpose != "consolidation"]
    assert models == [
        ("fact_extraction", "gemini-3-flash-preview"),
        ("reflection_extraction", "gemini-3-flash-preview"),
        ("fact_extraction", "gemini-3-flash-preview"),
        ("reflection_extraction", "gemini-3-pro-preview"),
    ]


async def test_a_preview_flag_also_selects_the_strong_model() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "p", ["alice"], preview=True)
    await world.memory.record_messages(
        conv, world.messages("please keep answers short", "a", "b", "c")
    )
    await world.memory.form_memories(conv)
    [request] = world.llm.calls_for("reflection_extraction")
    assert request.model == "gemini-3-pro-preview"


async def test_with_the_master_switch_off_nothing_is_recorded_or_shown() -> None:
    from eden_memory.domain.settings import MemorySettings

    world = make_world(STORY, MemorySettings(enabled=False))
    conv = world.memory.conversation(AGENT, "s", ["alice"])
    recorded = await world.memory.record_messages(
        conv, world.messages("my email is alice@example.com", "a", "b", "c")
    )
    assert recorded.state is None
    assert await world.stores.sessions.get_session("nova", "s") is None  # type: ignore[arg-type]
    assert (await world.memory.get_context(conv)).xml == ""
    assert not world.memory.search_offered(conv)
