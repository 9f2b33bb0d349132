"""A formation that fails at any port call converges, when retried, to the fault-free result.

Every call the formation makes to the store, the embedder, the model and the clock is
numbered; each in turn fails once, before it takes effect and after it (the work done, the
reply lost), and the formation is retried until it succeeds. The memory must then be exactly
what a run without the fault leaves: the same facts active, retired, merged and versioned,
with the same history, and the same reflections and blobs. The second session updates one
fact (UPDATE), contradicts another (DELETE) and repeats a third (NONE), so a retry meets
every kind of half-done dedup plan.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import EmbeddingSpaceError
from eden_memory.domain.models import FactStatus
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM
from tests.application.faults import (
    FaultPlan,
    FaultyClock,
    FaultyEmbedder,
    FaultyLLM,
    InjectedFault,
    faulty_stores,
)
from tests.application.stores import StoreMaker
from tests.application.story import START, Story, World
from tests.application.test_reliability import AGENT, EAGER, FIRST
from tests.application.test_story import STORY

SECOND = (
    "I am now the CTO at Acme Corp",  # UPDATE of "Alice works at Acme Corp"
    "correction: the Mars festival budget is 60000 dollars",  # DELETE of the 50000 budget
    "you can reach me at alice@example.com",  # NONE: the email is known
    "actually, longer answers are fine now",
    "so the festival budget is now 60000 dollars",  # near the 60000 fact formed beside it
)
NOW_60000 = "The Mars festival budget is now 60000 dollars"
# A judge that retires whatever it is shown as superseded: the fact formed beside this one
# must never be offered to it as a candidate, or a retry retires a fact just formed.
JUDGE = replace(
    STORY,
    facts={**STORY.facts, SECOND[-1]: [(NOW_60000, "agent")]},
    dedup={
        **STORY.dedup,
        NOW_60000: ("DELETE", "The Mars festival budget is 60000 dollars", None),
    },
)
# A merge whose text shares little with the sentence it came from: after the merge, the
# sentence no longer finds the merged fact as a candidate (the residual window of the
# release before the plan was saved).
FAR_MERGE = replace(
    JUDGE,
    dedup={
        **JUDGE.dedup,
        "Alice works at Acme Corp as CTO": (
            "UPDATE",
            "Alice works at Acme Corp",
            "Chief technology officer of Acme Corp: Alice, since March",
        ),
    },
)


async def prepared(stores: Stores, plan: FaultPlan, judge: Story) -> World:
    """Session one formed, session two recorded and not yet formed."""
    clock = FakeClock(START)
    scripted = ScriptedLLM(judge)
    embedder = KeywordEmbedder()
    memory = MemoryService(
        faulty_stores(stores, plan),
        FaultyEmbedder(embedder, plan),
        FaultyLLM(scripted, plan),
        cast(FakeClock, FaultyClock(clock, plan)),
        EAGER,
    )
    world = World(memory, stores, scripted, embedder, clock)
    first = memory.conversation(AGENT, "s1", ["alice"])
    await memory.record_messages(first, world.messages(*FIRST))
    await memory.form_memories(first)
    clock.advance(hours=1)
    second = memory.conversation(AGENT, "s2", ["alice"])
    await memory.record_messages(second, world.messages(*SECOND))
    return world


async def form_until_done(world: World) -> None:
    """Retry until the messages are formed; a claim left behind (its release failed too) must
    expire first. One whose reply was lost is taken back at once by the next formation."""
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    for _ in range(4):
        try:
            await world.memory.form_memories(conv)
            await world.memory.consolidate(conv)  # what a later formation would do
        except InjectedFault:
            continue
        state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
        if state is not None and state.pending_messages == 0:
            return
        world.clock.advance(seconds=EAGER.formation.claim_ttl_seconds + 1)
    raise AssertionError("the formation did not succeed after the fault")


async def snapshot(world: World) -> dict[str, Any]:
    m = world.memory.admin
    facts = await m.list_facts("nova", status=None, limit=1000)
    reflections = await m.list_reflections("nova", include_absorbed=True)
    blobs = await world.stores.note_records.list_consolidated("nova")  # type: ignore[arg-type]
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    return {
        "facts": sorted(
            (
                f.id,
                f.content,
                f.status.value,
                f.version,
                tuple(h.content for h in f.history),
                f.superseded_by,
            )
            for f in facts
        ),
        "reflections": sorted((r.scope.value, r.content, r.absorbed) for r in reflections),
        "blobs": sorted((b.scope.value, b.content, b.version) for b in blobs),
        "pending": state.pending_messages if state else None,
    }


@pytest.mark.parametrize("judge", [JUDGE, FAR_MERGE], ids=["near-merge", "far-merge"])
async def test_a_fault_at_any_call_of_a_formation_converges_to_the_fault_free_result(
    make_store: StoreMaker, judge: Story
) -> None:
    plan = FaultPlan()
    world = await prepared(await make_store(), plan, judge)
    plan.arm(-1, after=False)  # count only
    await form_until_done(world)
    calls = list(plan.calls)
    expected = await snapshot(world)
    assert any(f[2] == FactStatus.RETIRED.value for f in expected["facts"])
    assert any(f[3] == 2 for f in expected["facts"])  # the UPDATE merged into a fact
    wrong: list[str] = []
    for at in range(len(calls)):
        for after in (False, True):
            plan = FaultPlan()
            world = await prepared(await make_store(), plan, judge)
            plan.arm(at, after=after)
            await form_until_done(world)
            got = await snapshot(world)
            if got != expected:
                wrong.append(f"{plan.fired}: {_diff(expected, got)}")
    assert not wrong, "\n".join(wrong)


def _diff(expected: dict[str, Any], got: dict[str, Any]) -> str:
    parts = []
    for part in expected:
        missing = [x for x in expected[part] if x not in got[part]] if part != "pending" else []
        extra = [x for x in got[part] if x not in expected[part]] if part != "pending" else []
        if part == "pending" and expected[part] != got[part]:
            parts.append(f"pending {got[part]} instead of {expected[part]}")
        if missing or extra:
            parts.append(f"{part}: missing {missing}, extra {extra}")
    return "; ".join(parts)


async def test_a_retry_finishes_the_saved_plan_and_forms_messages_said_since_on_their_own(
    make_store: StoreMaker,
) -> None:
    plan = FaultPlan()
    world = await prepared(await make_store(), plan, JUDGE)
    plan.arm(-1, after=False)
    await form_until_done(world)
    expected = await snapshot(world)
    merge = plan.calls.index("store.update_fact")

    plan = FaultPlan()
    world = await prepared(await make_store(), plan, JUDGE)
    plan.arm(merge, after=True)  # the merge is written, its reply lost
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    with pytest.raises(InjectedFault):
        await world.memory.form_memories(conv)
    world.clock.advance(minutes=5)
    await world.memory.record_messages(conv, world.messages("Bob here, my phone is 555 0100"))
    calls_before = len(world.llm.calls_for("fact_extraction"))
    report = await world.memory.form_memories(conv)
    assert report is not None
    assert report.resumed_plan
    # The saved plan's messages are not read again: extraction sees only the new message.
    [extraction] = world.llm.calls_for("fact_extraction")[calls_before:]
    assert "Bob here" in extraction.prompt
    assert "CTO" not in extraction.prompt
    await world.memory.consolidate(conv)
    got = await snapshot(world)
    bob = [f for f in got["facts"] if f[1] == "Bob's phone number is 555 0100"]
    assert len(bob) == 1
    assert [f for f in got["facts"] if f not in bob] == expected["facts"]


async def test_an_unreadable_saved_plan_is_reported_and_the_messages_are_planned_afresh(
    make_store: StoreMaker, caplog: pytest.LogCaptureFixture
) -> None:
    plan = FaultPlan()
    world = await prepared(await make_store(), plan, JUDGE)
    plan.arm(-1, after=False)
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    claim = await world.stores.sessions.claim_messages(
        state.agent_id, state.session_id, "planner", START, 60, 1, 100
    )
    assert claim is not None
    await world.stores.sessions.save_plan(claim, '{"format": 99}')
    await world.stores.sessions.release_claim(claim)
    with caplog.at_level("WARNING", logger="eden_memory.formation"):
        report = await world.memory.form_memories(conv)
    assert report is not None
    assert not report.resumed_plan
    assert report.facts_added
    assert any("unreadable" in r.getMessage() for r in caplog.records)


async def interrupted(make_store: StoreMaker) -> tuple[World, FaultPlan]:
    """Session two's formation failed after its adds, before its merge and retirement."""
    plan = FaultPlan()
    world = await prepared(await make_store(), plan, JUDGE)
    plan.arm(-1, after=False)
    await form_until_done(world)
    merge = plan.calls.index("store.update_fact")
    plan = FaultPlan()
    world = await prepared(await make_store(), plan, JUDGE)
    plan.arm(merge, after=False)
    with pytest.raises(InjectedFault):
        await world.memory.form_memories(world.memory.conversation(AGENT, "s2", ["alice"]))
    return world, plan


def another_service(world: World, embedder: KeywordEmbedder) -> MemoryService:
    return MemoryService(world.stores, embedder, ScriptedLLM(JUDGE), world.clock, EAGER)


async def budgets(world: World) -> dict[str, str]:
    facts = await world.memory.admin.list_facts("nova", status=None, limit=100)
    return {f.content: f.status.value for f in facts if "budget" in f.content}


async def test_a_saved_plan_leaves_out_user_facts_once_a_second_user_joined(
    make_store: StoreMaker,
) -> None:
    world, _ = await interrupted(make_store)
    group = world.memory.conversation(AGENT, "s2", ["alice", "bob"])
    await world.memory.record_messages(group, world.messages("hello everyone", author="bob"))
    report = await world.memory.form_memories(group)
    assert report is not None
    assert report.resumed_plan
    assert await budgets(world) == {
        "The Mars festival budget is 50000 dollars": "retired",
        "The Mars festival budget is 60000 dollars": "active",
        "The Mars festival budget is now 60000 dollars": "active",
    }
    facts = await world.memory.admin.list_facts("nova", status=None, limit=100)
    assert "Alice works at Acme Corp as CTO since March" not in {f.content for f in facts}
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    assert state.pending_messages == 0


async def test_a_worker_with_another_embedder_is_refused_and_the_plan_kept(
    make_store: StoreMaker,
) -> None:
    world, _ = await interrupted(make_store)
    wrong = another_service(world, KeywordEmbedder(model="keyword-other"))
    with pytest.raises(EmbeddingSpaceError, match="keyword-other"):
        await wrong.form_memories(wrong.conversation(AGENT, "s2", ["alice"]))
    await form_until_done(world)
    assert (await budgets(world))["The Mars festival budget is 50000 dollars"] == "retired"


async def test_after_a_re_embedding_the_retry_embeds_the_plan_again_and_finishes_it(
    make_store: StoreMaker,
) -> None:
    world, _ = await interrupted(make_store)
    moved = another_service(world, KeywordEmbedder(model="keyword-other"))
    await moved.admin.reembed(["nova"])
    report = await moved.form_memories(moved.conversation(AGENT, "s2", ["alice"]))
    assert report is not None
    assert report.resumed_plan
    assert (await budgets(world))["The Mars festival budget is 50000 dollars"] == "retired"
    facts = await moved.admin.list_facts("nova", status=None, limit=100)
    assert {f.embedding_model for f in facts} == {"keyword-other"}
