"""The library as a host uses it: a story over several sessions, one user and a group."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

from eden_memory.domain.models import FactStatus
from eden_memory.domain.scopes import AgentMemoryConfig, Scope, ScopeKey
from eden_memory.testing import fail_next
from tests.application.story import Story, World, make_world, purposes

AGENT = AgentMemoryConfig("nova", user_memory_enabled=True, agent_memory_enabled=True)

STORY = Story(
    facts={
        "my email is alice@example.com": [("Alice's email is alice@example.com", "user")],
        "I work at Acme Corp": [("Alice works at Acme Corp", "user")],
        "the Mars festival budget is 50000 dollars": [
            ("The Mars festival budget is 50000 dollars", "agent")
        ],
        "I am now the CTO at Acme Corp": [("Alice works at Acme Corp as CTO", "user")],
        "correction: the Mars festival budget is 60000 dollars": [
            ("The Mars festival budget is 60000 dollars", "agent")
        ],
        "again, my email is alice@example.com": [("Alice's email is alice@example.com", "user")],
        "you can reach me at alice@example.com": [
            ("Alice's email address is alice@example.com", "user")
        ],
        "Bob here, my phone is 555 0100": [("Bob's phone number is 555 0100", "user")],
    },
    notes={
        "please keep answers short": [("user", "Alice wants short answers")],
        "the Mars festival budget is 50000 dollars": [
            ("agent", "Planning the Mars festival is an ongoing project"),
            ("session", "Alice is planning the festival budget"),
        ],
        "I am now the CTO at Acme Corp": [("user", "Alice was promoted; address her as CTO")],
        "actually, longer answers are fine now": [("user", "Alice now accepts longer answers")],
        "let us draft the poster": [("session", "Drafting the festival poster")],
        "hello everyone": [("user", "a note no group session may keep"), ("session", "Group met")],
    },
    dedup={
        "Alice works at Acme Corp as CTO": (
            "UPDATE",
            "Alice works at Acme Corp",
            "Alice works at Acme Corp as CTO since March",
        ),
        "The Mars festival budget is 60000 dollars": (
            "DELETE",
            "The Mars festival budget is 50000 dollars",
            None,
        ),
        "Alice's email address is alice@example.com": (
            "NONE",
            "Alice's email is alice@example.com",
            None,
        ),
    },
)


async def _session_one(world: World) -> None:
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.start_session(conv)
    await world.memory.record_messages(
        conv,
        world.messages(
            "my email is alice@example.com",
            "I work at Acme Corp",
            "please keep answers short",
            "the Mars festival budget is 50000 dollars",
        ),
    )
    report = await world.memory.end_session(conv)
    assert report is not None
    assert report.facts_extracted == 3
    assert report.decisions == {"ADD": 3, "UPDATE": 0, "DELETE": 0, "NONE": 0}


async def test_a_first_session_forms_facts_reflections_and_consolidates_at_session_end() -> None:
    world = make_world(STORY)
    await _session_one(world)
    facts = await world.memory.admin.list_facts("nova")
    assert {f.content for f in facts} == {
        "Alice's email is alice@example.com",
        "Alice works at Acme Corp",
        "The Mars festival budget is 50000 dollars",
    }
    # Session end forces consolidation of every non-empty buffer.
    status = {
        s.key.scope: s.buffered
        for s in await world.memory.admin.consolidation_status("nova", "alice", "s1")
    }
    assert status == {Scope.AGENT: 0, Scope.USER: 0, Scope.SESSION: 0}
    blob = await world.memory.admin.get_consolidated(ScopeKey.user("nova", "alice"))
    assert blob.version == 1
    assert "Alice wants short answers" in blob.content


async def test_a_later_session_updates_retires_and_skips_known_facts() -> None:
    world = make_world(STORY)
    await _session_one(world)
    world.clock.advance(days=1)
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(
        conv,
        world.messages(
            "I am now the CTO at Acme Corp",
            "correction: the Mars festival budget is 60000 dollars",
            "again, my email is alice@example.com",
            "you can reach me at alice@example.com",
        ),
    )
    report = await world.memory.form_memories(conv)
    assert report is not None
    assert report.exact_duplicates == 1
    assert report.decisions == {"ADD": 0, "UPDATE": 1, "DELETE": 1, "NONE": 1}
    assert not report.overrides
    m = world.memory.admin
    active = {f.content: f for f in await m.list_facts("nova")}
    assert set(active) == {
        "Alice's email is alice@example.com",
        "Alice works at Acme Corp as CTO since March",
        "The Mars festival budget is 60000 dollars",
    }
    updated = active["Alice works at Acme Corp as CTO since March"]
    history = await m.fact_history("nova", updated.id)
    assert [h.content for h in history] == [
        "Alice works at Acme Corp",
        "Alice works at Acme Corp as CTO since March",
    ]
    assert updated.version == 2
    retired = await m.list_facts("nova", status=FactStatus.RETIRED)
    assert [f.content for f in retired] == ["The Mars festival budget is 50000 dollars"]
    assert retired[0].superseded_by == active["The Mars festival budget is 60000 dollars"].id
    # Retired facts are out of search, not erased.
    found = await world.memory.search_facts(conv, ["Mars festival budget"])
    assert [r.fact.content for r in found.results] == ["The Mars festival budget is 60000 dollars"]


async def test_the_context_shows_every_part_in_order_with_fact_ages() -> None:
    world = make_world(STORY)
    await _session_one(world)
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("let us draft the poster", "a", "b", "c")
    )
    await world.memory.form_memories(conv)
    world.clock.advance(hours=3)
    context = await world.memory.get_context(conv)
    root = ET.fromstring(context.xml)
    assert [child.tag for child in root] == ["AgentMemory", "UserMemory", "SessionMemory", "Facts"]
    user = root.find("UserMemory/Consolidated")
    assert user is not None
    assert user.get("version") == "1"
    session_notes = root.findtext("SessionMemory/RecentReflections") or ""
    assert "- Drafting the festival poster" in session_notes
    facts = (root.findtext("Facts") or "").strip().splitlines()
    assert "- [user] Alice's email is alice@example.com (3h ago)" in facts
    assert len(facts) == 3


async def test_a_group_session_keeps_no_user_memory_and_shows_none() -> None:
    world = make_world(STORY)
    await _session_one(world)
    group = world.memory.conversation(AGENT, "g1", ["alice", "bob"])
    await world.memory.record_messages(
        group, world.messages("hello everyone", "Bob here, my phone is 555 0100", "x", "y")
    )
    report = await world.memory.form_memories(group)
    assert report is not None
    assert [r.content for r in report.facts_rejected] == ["Bob's phone number is 555 0100"]
    assert [r.content for r in report.reflections_rejected] == ["a note no group session may keep"]
    prompt = world.llm.calls_for("fact_extraction")[-1]
    assert '"user":' not in prompt.prompt
    assert '"agent":' in prompt.prompt
    context = await world.memory.get_context(group)
    assert "UserMemory" not in context.xml
    assert "alice@example.com" not in context.xml
    found = await world.memory.search_facts(group, ["alice email"])
    assert found.results == []
    assert all(
        r.scope is not Scope.USER
        for r in await world.memory.admin.list_reflections("nova", ScopeKey.session("nova", "g1"))
    )


async def test_a_formation_stays_within_its_call_budget() -> None:
    world = make_world(STORY)
    await _session_one(world)
    first = purposes(world.llm.requests)
    # No fact had a candidate: extraction, reflections, and one consolidation per scope.
    assert first == {"fact_extraction": 1, "reflection_extraction": 1, "consolidation": 3}
    world.llm.requests.clear()
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(
        conv,
        world.messages(
            "I am now the CTO at Acme Corp",
            "correction: the Mars festival budget is 60000 dollars",
            "q",
            "r",
        ),
    )
    report = await world.memory.form_memories(conv)
    assert report is not None
    assert purposes(world.llm.requests) == {
        "fact_extraction": 1,
        "dedup": 1,
        "reflection_extraction": 1,
    }
    # One call for the new facts, one for the merged text of the update.
    assert report.embedding_calls == 2
    assert report.usage.texts_embedded == 3


async def test_formation_starts_on_its_own_when_the_turns_are_due() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    texts = [f"filler message number {i}" for i in range(44)]
    recorded = await world.memory.record_messages(conv, world.messages(*texts))
    assert not recorded.formation_started
    recorded = await world.memory.record_messages(
        conv, world.messages("my email is alice@example.com", start=44)
    )
    assert recorded.formation_started
    await world.memory.wait_for_background()
    assert len(world.memory.reports) == 1
    assert world.memory.reports[0].messages == 45
    assert [f.content for f in await world.memory.admin.list_facts("nova")] == [
        "Alice's email is alice@example.com"
    ]


async def test_facts_are_dated_by_the_conversation_not_by_the_clock() -> None:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "old", ["alice"])
    old = world.messages("my email is alice@example.com", "a", "b", "c")
    world.clock.advance(days=400)
    await world.memory.record_messages(conv, old)
    await world.memory.form_memories(conv)
    [fact] = await world.memory.admin.list_facts("nova")
    assert fact.formed_at == old[0].sent_at
    assert world.clock.now() - fact.formed_at >= timedelta(days=400)


async def test_an_update_that_loses_a_race_keeps_the_new_fact_as_said() -> None:
    from eden_memory.domain.errors import ConflictError

    world = make_world(STORY)
    await _session_one(world)
    fail_next(world.stores, "update_fact", ConflictError("edited meanwhile"))
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("I am now the CTO at Acme Corp", "a", "b", "c")
    )
    report = await world.memory.form_memories(conv)
    assert report is not None
    assert [o.why for o in report.overrides] == ["edited meanwhile"]
    contents = {f.content for f in await world.memory.admin.list_facts("nova")}
    assert {"Alice works at Acme Corp", "Alice works at Acme Corp as CTO"} <= contents
    # The sentence as said reuses its vector: only the merged text was embedded again.
    assert report.embedding_calls == 2
