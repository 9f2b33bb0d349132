"""An agent's own settings (seed 004: per-shard thresholds and limits), through the service."""

from __future__ import annotations

import pytest

from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import MemorySettings
from tests.application.story import make_world
from tests.application.test_story import STORY

FOUR = ("my email is alice@example.com", "I work at Acme Corp", "a", "b")


def agent(**fields: object) -> AgentMemoryConfig:
    return AgentMemoryConfig("nova", settings=AgentSettings.of(fields))


async def test_an_agents_message_interval_starts_formation_sooner_than_the_globals() -> None:
    world = make_world(STORY)
    eager = world.memory.conversation(agent(formation={"message_interval": 4}), "s1", ["alice"])
    plain = world.memory.conversation(AgentMemoryConfig("other"), "s2", ["alice"])
    started = await world.memory.record_messages(eager, world.messages(*FOUR), background=False)
    waiting = await world.memory.record_messages(plain, world.messages(*FOUR), background=False)
    assert (started.formation_started, waiting.formation_started) == (True, False)


async def test_an_agents_consolidation_threshold_and_word_limit_are_used() -> None:
    world = make_world(STORY)
    own = agent(consolidation={"thresholds": {"user": 1}, "word_limits": {"user": 77}})
    conv = world.memory.conversation(own, "s1", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("please keep answers short", "a", "b", "c")
    )
    report = await world.memory.form_memories(conv)
    # One user note reaches this agent's threshold of 1 (the global one is 4).
    assert report is not None
    assert [c.scope_key for c in report.consolidations] == ["user:nova:alice"]
    blobs = await world.stores.buffers.get_consolidated([ScopeKey.user("nova", "alice")])
    assert blobs[ScopeKey.user("nova", "alice")].word_limit == 77
    [request] = world.llm.calls_for("consolidation")
    assert "At most 77 words" in request.system


async def test_a_cold_session_is_formed_with_the_settings_stored_with_it() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(
        agent(consolidation={"thresholds": {"user": 1}}), "s1", ["alice"]
    )
    await world.memory.record_messages(
        conv, world.messages("please keep answers short", "a", "b", "c")
    )
    world.clock.advance(minutes=11)
    [report] = await world.memory.process_cold_sessions()  # from the store alone
    assert [c.scope_key for c in report.consolidations] == ["user:nova:alice"]


async def test_an_agents_fifo_limit_and_search_default_apply_to_its_conversations() -> None:
    world = make_world(STORY)
    small = world.memory.conversation(
        agent(facts={"fifo_limit": 1}, search={"default_top_k": 1}), "s1", ["alice"]
    )
    await world.memory.record_messages(small, world.messages(*FOUR))
    await world.memory.form_memories(small)
    assert (await world.memory.get_context(small)).facts == 1
    plain = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    assert (await world.memory.get_context(plain)).facts == 2
    found = await world.memory.search_facts(small, ["Alice email Acme"], thresholds=False)
    assert len(found.results) == 1
    assert len((await world.memory.search_facts(plain, ["Alice email Acme"])).results) == 2


async def test_an_agents_fact_word_limit_refuses_longer_facts() -> None:
    world = make_world(STORY)
    terse = world.memory.conversation(agent(facts={"max_words": 4}), "s1", ["alice"])
    await world.memory.record_messages(terse, world.messages(*FOUR))
    report = await world.memory.form_memories(terse)
    assert report is not None
    # "Alice works at Acme Corp" has 5 words: over this agent's 4, under the global 30.
    assert report.facts_extracted == 1
    assert [r.content for r in report.facts_rejected] == ["Alice works at Acme Corp"]


def test_settings_that_clash_with_the_globals_are_refused_when_the_conversation_is_built() -> None:
    world = make_world(STORY, MemorySettings.model_validate({"search": {"max_top_k": 20}}))
    with pytest.raises(InvalidInputError, match="default_top_k must not exceed max_top_k"):
        world.memory.conversation(agent(search={"default_top_k": 30}), "s1", ["alice"])


def test_a_bad_override_names_its_field() -> None:
    with pytest.raises(InvalidInputError, match=r"consolidation\.thresholds\.agent"):
        agent(consolidation={"thresholds": {"agent": 0}})
    with pytest.raises(InvalidInputError, match=r"facts\.cache_ttl_seconds"):
        agent(facts={"cache_ttl_seconds": 1})
    with pytest.raises(InvalidInputError, match="must be an AgentSettings"):
        AgentMemoryConfig("nova", settings={"facts": {}})  # type: ignore[arg-type]


async def test_stats_and_consolidation_status_take_the_agents_own_numbers() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("please keep answers short", "a", "b", "c")
    )
    await world.memory.form_memories(conv)
    own = AgentSettings.of(
        {"consolidation": {"thresholds": {"user": 1}, "word_limits": {"user": 50}}}
    )
    admin = world.memory.admin
    user = ScopeKey.user("nova", "alice")
    [plain] = [s for s in await admin.consolidation_status("nova", "alice") if s.key == user]
    [mine] = [
        s
        for s in await admin.consolidation_status("nova", "alice", agent_settings=own)
        if s.key == user
    ]
    assert (plain.threshold, plain.due, mine.threshold, mine.due) == (4, False, 1, True)
    [stats] = [s for s in await admin.stats("nova", "alice", agent_settings=own) if s.key == user]
    assert stats.word_limit == 50
