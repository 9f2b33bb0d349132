"""Model output is checked before it is kept: refused or repaired, reported and logged.

The story's model answers, then each answer is spoiled the way Qwen2.5-1.5B spoiled ours
(issue 15): facts that are messages or the agent's own words, a consolidated blob that
echoes the prompt's scaffolding, a dedup answer that skips a fact and answers one it was not
asked. On every store: nothing spoiled is stored, nothing else is lost, the budget holds.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from pydantic import BaseModel

from eden_memory.application.formation.reports import FormationReport
from eden_memory.domain.dedup import NOT_ASKED, SKIPPED
from eden_memory.domain.models import FactStatus, Message, Role
from eden_memory.domain.relative_dates import spoken_day
from eden_memory.ports.llm import LLMRequest
from eden_memory.testing import ScriptedLLM
from tests.application.stores import StoreMaker
from tests.application.story import World, make_world
from tests.application.test_reliability import AGENT, EAGER, FIRST
from tests.application.test_story import STORY

AGENT_LINE = "I will keep the new date and venue in mind for the festival."
COPIED = "Alice said the Mars festival will need a bigger stage than last year"
SPOILED_FACTS = [
    (COPIED, "agent", [5]),  # a message kept whole
    (AGENT_LINE, "agent", [6]),  # the agent's line kept whole
    ("I'm happy to help with the festival", "agent", [6]),  # the agent speaking
    ("Alice worries about the budget and I will help her", "user", [4, 6]),  # both mixed
]
SPOILED_NOTES = (
    "Ana wants short answers; she often writes from her phone.",  # the prompt's example
    "<conversation> Alice wants short answers",  # a tag of the prompt
    # an instruction of the request:
    "each in your own words, starting with whom it is about, and at one level only.",
)
# A session written out as notes, one line each (as Qwen2.5-1.5B did): past three, refused.
EXTRA_NOTES = tuple(f"Alice mentioned festival detail number {n}" for n in range(1, 6))
# Notes in a speaker's voice: a message copied whole, and the first person.
VOICED_NOTES = {
    COPIED: "repeats message 5 of the conversation nearly word for word",
    "I will keep the answers short for Alice": "it speaks in the first person ('I')",
}
DATED_FACT = "Alice booked the festival venue last Saturday"
DATED_NOTE = "Alice wants the venue she booked last Saturday confirmed"
# What a small model copies from today's consolidation prompt: its JSON placeholder.
ECHO = "the new text of the section\n"


class Spoiler:
    """The story's answer for each purpose, then spoiled while ``spoil`` holds that purpose."""

    def __init__(self) -> None:
        self.spoil: set[str] = set()
        self.llm = ScriptedLLM(
            STORY,
            by_purpose={
                "fact_extraction": self.facts,
                "consolidation": self.consolidation,
                "dedup": self.dedup,
                "reflection_extraction": self.notes,
            },
        )

    async def facts(self, request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
        answer = await STORY(request, schema)
        if "fact_extraction" in self.spoil:
            answer["facts"] += [
                {"content": c, "scope": s, "source_messages": m} for c, s, m in SPOILED_FACTS
            ]
        if "dated" in self.spoil:  # a relative date kept as said, as Qwen2.5-1.5B kept them
            answer["facts"].append({"content": DATED_FACT, "scope": "user", "source_messages": [1]})
        if "wide" in self.spoil:  # every fact cites the whole session, as one did in LoCoMo
            shown = [int(n) for n in re.findall(r"^\[(\d+)\] ", request.prompt, re.M)]
            for fact in answer["facts"]:
                fact["source_messages"] = shown
        return answer

    async def notes(self, request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
        answer = await STORY(request, schema)
        if "reflection_extraction" in self.spoil:
            answer["user"] += list(SPOILED_NOTES)
        if "voice" in self.spoil:
            answer["user"] += list(VOICED_NOTES)
        if "many" in self.spoil:
            answer["user"] += list(EXTRA_NOTES)
        if "dated note" in self.spoil:  # a note keeps "last Saturday" as said
            answer["user"] = [DATED_NOTE]
        return answer

    async def consolidation(self, request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
        answer = await STORY(request, schema)
        if "consolidation" in self.spoil:
            answer["content"] = ECHO + answer["content"]
        return answer

    async def dedup(self, request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
        answer = await STORY(request, schema)
        if "dedup" in self.spoil:
            asked = [int(n) for n in re.findall(r"^New fact (\d+) ", request.prompt, re.M)]
            judged = [d for d in answer["decisions"] if d["action"] != "DELETE"]
            # A decision for a fact it was not asked about, as a real model gave one.
            stray = {"fact": min(set(range(len(asked) + 1)) - set(asked)), "action": "DELETE"}
            answer["decisions"] = [*judged, {**stray, "target_id": None, "text": None}]
        return answer


async def _world(make_store: StoreMaker, spoiler: Spoiler) -> World:
    return make_world(STORY, EAGER, stores=await make_store(), llm=spoiler.llm)


def _messages(world: World) -> list[Message]:
    said = world.messages(*FIRST, COPIED)
    agent = Message(
        id="m-agent-1",
        role=Role.AGENT,
        text=AGENT_LINE,
        sent_at=said[-1].sent_at + timedelta(minutes=1),
        author_id="nova",
    )
    return [*said, agent]


async def _active_facts(world: World) -> list[str]:
    return sorted(f.content for f in await world.memory.admin.list_facts("nova"))


async def test_copied_messages_and_the_agents_voice_are_refused_the_rest_is_kept(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    clean, spoiled = Spoiler(), Spoiler()
    spoiled.spoil.add("fact_extraction")
    expected = await _world(make_store, clean)
    await expected.memory.record_messages(
        expected.memory.conversation(AGENT, "s1", ["alice"]), _messages(expected)
    )
    await expected.memory.end_session(expected.memory.conversation(AGENT, "s1", ["alice"]))

    world = await _world(make_store, spoiled)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, _messages(world))
    report = await world.memory.end_session(conv)

    assert report is not None
    reasons = {r.content: r.why for r in report.facts_rejected}
    assert set(reasons) == {c for c, _, _ in SPOILED_FACTS}
    assert reasons[COPIED].startswith("repeats message 5")
    assert reasons[AGENT_LINE].startswith("repeats message 6")
    assert reasons["I'm happy to help with the festival"].startswith(
        "the agent speaks in the first person"
    )
    assert "first person ('I')" in reasons["Alice worries about the budget and I will help her"]
    # Exactly what the model said well is kept; the refusals cost no extra call.
    assert await _active_facts(world) == await _active_facts(expected)
    assert report.usage.llm_calls_by_purpose["fact_extraction"] == 1
    logged = [r.getMessage() for r in caplog.records if "fact rejected" in r.getMessage()]
    assert len(logged) == len(SPOILED_FACTS)


async def test_a_blob_echoing_the_prompt_is_refused_and_nothing_is_absorbed(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    spoiler = Spoiler()
    spoiler.spoil.add("consolidation")
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST))
    report = await world.memory.end_session(conv)

    assert report is not None
    assert report.consolidations
    for outcome in report.consolidations:
        assert (outcome.status, outcome.version, outcome.absorbed) == ("rejected", None, 0)
        assert "the new text of the section" in outcome.error
    store = world.stores.note_records
    assert [b for b in await store.list_consolidated("nova") if b.content] == []  # type: ignore[arg-type]
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    assert notes
    assert not any(n.absorbed for n in notes)
    assert sum("consolidation of" in r.getMessage() for r in caplog.records) == len(
        report.consolidations
    )

    # Nothing was lost: the next consolidation, answered well, absorbs every note.
    spoiler.spoil.clear()
    outcomes = await world.memory.consolidate(conv, force=True)
    assert {o.status for o in outcomes} == {"consolidated"}
    blobs = await store.list_consolidated("nova")  # type: ignore[arg-type]
    kept = "\n".join(b.content for b in blobs)
    assert all(n.content in kept for n in notes)
    assert "new text of the section" not in kept


async def test_an_echo_of_a_blob_that_has_content_keeps_the_version_it_had(
    make_store: StoreMaker,
) -> None:
    spoiler = Spoiler()
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST))
    await world.memory.end_session(conv)
    store = world.stores.note_records
    before = {b.key: (b.version, b.content) for b in await store.list_consolidated("nova")}  # type: ignore[arg-type]

    spoiler.spoil.add("consolidation")
    world.clock.advance(hours=1)
    second = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(
        second, world.messages("actually, longer answers are fine now")
    )
    report = await world.memory.end_session(second)

    assert report is not None
    assert [o.status for o in report.consolidations if o.scope_key.startswith("user")] == [
        "rejected"
    ]
    after = {b.key: (b.version, b.content) for b in await store.list_consolidated("nova")}  # type: ignore[arg-type]
    assert {k: v for k, v in after.items() if k in before} == before
    pending = await world.memory.admin.list_reflections("nova")
    assert "Alice now accepts longer answers" in {n.content for n in pending}


async def test_a_dedup_answer_that_skips_a_fact_adds_it_and_ignores_what_was_not_asked(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    spoiler = Spoiler()
    world = await _world(make_store, spoiler)
    first = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(first, world.messages(*FIRST))
    await world.memory.end_session(first)

    spoiler.spoil.add("dedup")
    world.clock.advance(hours=1)
    second = world.memory.conversation(AGENT, "s2", ["alice"])
    await world.memory.record_messages(
        second,
        world.messages(
            "I am now the CTO at Acme Corp",
            "correction: the Mars festival budget is 60000 dollars",
            "Bob here, my phone is 555 0100",
        ),
    )
    report = await world.memory.end_session(second)

    assert report is not None
    whys = [o.why for o in report.overrides]
    assert SKIPPED in whys  # the 60000 budget was not judged
    assert NOT_ASKED in whys  # Bob's phone had no similar fact: it was not asked about
    facts = await world.memory.admin.list_facts("nova", status=None, limit=100)
    status = {f.content: f.status for f in facts}
    # Repaired as new, nothing lost: the newer budget is kept beside the older one.
    assert status["The Mars festival budget is 60000 dollars"] is FactStatus.ACTIVE
    assert status["The Mars festival budget is 50000 dollars"] is FactStatus.ACTIVE
    # The judged fact went through: the update was applied.
    assert "Alice works at Acme Corp as CTO since March" in status
    assert status["Bob's phone number is 555 0100"] is FactStatus.ACTIVE
    assert report.usage.llm_calls_by_purpose["dedup"] == 1
    assert sum("dedup decision" in r.getMessage() for r in caplog.records) == len(whys)


async def test_notes_echoing_the_reflection_prompt_are_refused_the_rest_is_kept(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    spoiler = Spoiler()
    spoiler.spoil.add("reflection_extraction")
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST))
    report = await world.memory.end_session(conv)

    assert report is not None
    assert {r.content for r in report.reflections_rejected} == set(SPOILED_NOTES)
    assert all(r.why.startswith("echoes the prompt") for r in report.reflections_rejected)
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    assert sorted(n.content for n in notes) == [
        "Alice is planning the festival budget",
        "Alice wants short answers",
        "Planning the Mars festival is an ongoing project",
    ]
    logged = [r for r in caplog.records if "reflection rejected" in r.getMessage()]
    assert len(logged) == len(SPOILED_NOTES)


async def test_notes_in_a_speakers_voice_are_refused_as_facts_are(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    spoiler = Spoiler()
    spoiler.spoil.add("voice")
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST, COPIED))
    report = await world.memory.end_session(conv)

    assert report is not None
    whys = {r.content: r.why for r in report.reflections_rejected}
    assert set(whys) == set(VOICED_NOTES)
    for note, why in VOICED_NOTES.items():
        assert whys[note].startswith(why)
    assert whys[COPIED].endswith(
        "a reflection is a note written for the agent to act on, not a message"
    )
    assert whys["I will keep the answers short for Alice"].endswith(
        "a reflection names who it is about"
    )
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    assert sorted(n.content for n in notes) == [
        "Alice is planning the festival budget",
        "Alice wants short answers",
        "Planning the Mars festival is an ongoing project",
    ]
    assert report.usage.llm_calls_by_purpose["reflection_extraction"] == 1


async def test_a_short_sessions_level_keeps_its_first_two_notes_and_counts_the_rest(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    spoiler = Spoiler()
    spoiler.spoil.update({"many", "voice"})
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST, COPIED))
    report = await world.memory.end_session(conv)

    assert report is not None
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    users = [n.content for n in notes if n.scope == "user"]
    # Five short messages: half the base of three notes a level, rounded up (formation_caps).
    # The story's user note and the first extra one; the refused voices use no place.
    assert users == ["Alice wants short answers", EXTRA_NOTES[0]]
    assert report.reflections_capped == {"user": len(EXTRA_NOTES) - 1}
    assert sorted(r.content for r in report.reflections_rejected) == sorted(VOICED_NOTES)
    (asked,) = spoiler.llm.calls_for("reflection_extraction")
    assert "Write at most 2 notes for each level" in asked.prompt
    logged = [r.getMessage() for r in caplog.records]
    assert sum("reflection rejected" in line for line in logged) == len(VOICED_NOTES)
    assert sum("4 user notes past the cap of 2 not kept" in line for line in logged) == 1


async def test_a_fact_citing_the_whole_session_keeps_the_three_messages_closest_to_it(
    make_store: StoreMaker,
) -> None:
    clean, wide = Spoiler(), Spoiler()
    wide.spoil.add("wide")
    formed, trimmed = {}, {}
    for name, spoiler in (("clean", clean), ("wide", wide)):
        world = await _world(make_store, spoiler)
        conv = world.memory.conversation(AGENT, "s1", ["alice"])
        said = world.messages(*FIRST, COPIED)
        await world.memory.record_messages(conv, said)
        report = await world.memory.end_session(conv)
        assert report is not None
        trimmed[name] = report.citations_trimmed
        facts = await world.memory.admin.list_facts("nova")
        formed[name] = {f.content: f.source_message_ids for f in facts}
    assert trimmed == {"clean": 0, "wide": len(formed["wide"])}  # the report counts each cut
    assert len(said) > 3
    assert formed["wide"].keys() == formed["clean"].keys()  # nothing lost, only trimmed
    for content, ids in formed["wide"].items():
        assert 1 <= len(ids) <= 3
        assert set(formed["clean"][content]) <= set(ids)  # the message that states it is kept


async def test_a_fact_with_a_relative_date_is_stored_with_the_day_it_names(
    make_store: StoreMaker,
) -> None:
    spoiler = Spoiler()
    spoiler.spoil.add("dated")
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    said = world.messages(*FIRST, COPIED)
    await world.memory.record_messages(conv, said)
    report = await world.memory.end_session(conv)
    assert report is not None
    assert report.dates_resolved == 1  # the story's own facts hold no relative date
    saturday = _saturday_before(said[0])
    active = await _active_facts(world)
    assert f"Alice booked the festival venue on {saturday}" in active
    assert DATED_FACT not in active


def _saturday_before(message: Message) -> str:
    said_on = message.sent_at.date()
    back = next(n for n in range(1, 8) if (said_on - timedelta(days=n)).weekday() == 5)
    return spoken_day(said_on - timedelta(days=back))


async def _user_notes(world: World) -> list[str]:
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    return [n.content for n in notes if n.scope == "user"]


async def _dated_session(
    make_store: StoreMaker, *, days: int
) -> tuple[World, FormationReport, list[Message]]:
    """A session whose fact and note both keep "last Saturday", said over ``days`` days."""
    spoiler = Spoiler()
    spoiler.spoil |= {"dated", "dated note"}
    world = await _world(make_store, spoiler)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    if days == 1:
        said = world.messages(*FIRST, COPIED)
    else:  # the last message the next day
        said = world.messages(*FIRST)
        world.clock.advance(minutes=24 * 60)
        said += world.messages(COPIED, start=len(said))
    assert len({m.sent_at.date() for m in said}) == days
    await world.memory.record_messages(conv, said)
    report = await world.memory.end_session(conv)
    assert report is not None
    return world, report, said


async def test_a_note_of_a_one_day_session_is_stored_with_the_day_it_names(
    make_store: StoreMaker,
) -> None:
    world, report, said = await _dated_session(make_store, days=1)
    saturday = _saturday_before(said[0])
    assert await _user_notes(world) == [f"Alice wants the venue she booked on {saturday} confirmed"]
    assert report.dates_resolved == 2  # the fact and the note


async def test_a_note_of_a_session_spanning_two_days_keeps_its_relative_date(
    make_store: StoreMaker,
) -> None:
    world, report, _ = await _dated_session(make_store, days=2)
    assert await _user_notes(world) == [DATED_NOTE]  # which day it counts from is unknown
    assert report.dates_resolved == 1  # the fact: it cites the message that says it
