"""A consolidation that fails for any reason — not only an ``EdenMemoryError`` — leaves its
buffer as it was and never undoes or aborts the formation whose writes are done; the report
says which scope failed and why. Cancellation is not a failure: it goes through.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from eden_memory.application.conversation import Conversation
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import ConsolidationSettings, MemorySettings, ScopeNumbers
from eden_memory.ports.llm import LLMRequest, LLMResult, T
from eden_memory.testing import fail_next
from tests.application.story import World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")
EAGER = MemorySettings(
    consolidation=ConsolidationSettings(thresholds=ScopeNumbers(agent=1, user=1, session=1))
)
FIRST = ("my email is alice@example.com", "I work at Acme Corp", "please keep answers short")
SECOND = (
    "I am now the CTO at Acme Corp",
    "correction: the Mars festival budget is 60000 dollars",
    "actually, longer answers are fine now",
    "let us draft the poster",
)
ERRORS: list[BaseException] = [
    RuntimeError("the client library broke"),
    KeyError("content"),
    ValueError("no blob in the answer"),
    ProviderError("503 from the provider"),
]
# The scopes s2's formation buffers reflections for (the story has no agent note in s2).
KEYS = {ScopeKey.user("nova", "alice").as_text(), ScopeKey.session("nova", "s2").as_text()}


class BrokenConsolidation:
    """Raises ``error`` on every consolidation call while ``broken``; the story otherwise."""

    def __init__(self, inner: Any, error: BaseException) -> None:
        self.inner, self.error, self.broken = inner, error, True

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        if request.purpose == "consolidation" and self.broken:
            raise self.error
        result: LLMResult[T] = await self.inner.generate(request, schema)
        return result


async def _world(error: BaseException, *, settings: MemorySettings = EAGER) -> World:
    """Session s1 formed and consolidated (the model healthy); s2's turn recorded, not formed."""
    llm = BrokenConsolidation(make_world(STORY).llm, error)
    llm.broken = False
    world = make_world(STORY, settings, llm=llm)
    s1 = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(s1, world.messages(*FIRST, "the budget is 50000 dollars"))
    await world.memory.form_memories(s1)
    world.clock.advance(hours=1)
    await world.memory.record_messages(_s2(world), world.messages(*SECOND))
    llm.broken = True
    return world


def _s2(world: World) -> Conversation:
    return world.memory.conversation(AGENT, "s2", ["alice"])


async def _memory(world: World) -> dict[str, Any]:
    m = world.memory.admin
    blobs = await world.stores.note_records.list_consolidated("nova")  # type: ignore[arg-type]
    return {
        "facts": sorted(f.content for f in await m.list_facts("nova")),
        "buffered": sorted(r.content for r in await m.list_reflections("nova")),
        "blobs": sorted((b.key.as_text(), b.version, b.content) for b in blobs),
    }


def _heal(world: World) -> None:
    llm = world.client
    assert isinstance(llm, BrokenConsolidation)
    llm.broken = False


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
async def test_a_formation_whose_consolidation_fails_keeps_its_writes_and_reports_it(
    error: BaseException,
) -> None:
    world = await _world(error)
    before = await _memory(world)
    report = await world.memory.form_memories(_s2(world))
    assert report is not None
    assert {o.scope_key for o in report.consolidations} == KEYS
    for outcome in report.consolidations:
        assert outcome.status == "failed"
        assert outcome.absorbed == 0
        assert outcome.version is None
        assert type(error).__name__ in outcome.error
    after = await _memory(world)
    assert after["blobs"] == before["blobs"]  # no blob changed
    assert "Alice works at Acme Corp as CTO since March" in after["facts"]  # the facts were written
    formed = sum(report.reflections.values())
    assert formed > 0
    assert len(after["buffered"]) == len(before["buffered"]) + formed  # nothing absorbed
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    assert state.pending_messages == 0  # the messages are formed, not given back
    assert state.claim_id is None
    assert world.memory.reports[-1] is report


@pytest.mark.parametrize("error", ERRORS[:3], ids=lambda e: type(e).__name__)
async def test_a_store_failing_to_commit_a_consolidation_leaves_the_buffer(
    error: Exception,
) -> None:
    world = await _world(error)
    _heal(world)
    for _ in KEYS:
        fail_next(world.stores, "commit_consolidation", error)
    before = await _memory(world)
    report = await world.memory.form_memories(_s2(world))
    assert report is not None
    assert [o.status for o in report.consolidations] == ["failed"] * len(KEYS)
    after = await _memory(world)
    assert after["blobs"] == before["blobs"]
    assert len(after["buffered"]) == len(before["buffered"]) + sum(report.reflections.values())


async def test_the_buffer_left_by_a_failure_is_consolidated_by_the_next_pass() -> None:
    world = await _world(RuntimeError("down"))
    report = await world.memory.form_memories(_s2(world))
    assert report is not None
    _heal(world)
    outcomes = await world.memory.consolidate(_s2(world))
    assert {o.status for o in outcomes} == {"consolidated"}
    assert (await _memory(world))["buffered"] == []


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
async def test_consolidating_on_request_reports_a_failure_and_keeps_the_buffer(
    error: BaseException,
) -> None:
    world = await _world(error, settings=MemorySettings())
    await world.memory.form_memories(_s2(world))  # default thresholds: nothing due yet
    before = await _memory(world)
    assert before["buffered"]
    outcomes = await world.memory.consolidate(_s2(world), force=True)
    assert outcomes
    assert {o.status for o in outcomes} == {"failed"}
    assert all(type(error).__name__ in o.error for o in outcomes)
    assert await _memory(world) == before


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
async def test_ending_a_session_reports_a_failed_consolidation_and_keeps_the_buffer(
    error: BaseException,
) -> None:
    world = await _world(error, settings=MemorySettings())
    report = await world.memory.end_session(_s2(world))
    assert report is not None
    assert report.messages == 4
    assert report.consolidations
    assert {o.status for o in report.consolidations} == {"failed"}
    after = await _memory(world)
    assert "Alice works at Acme Corp as CTO since March" in after["facts"]
    assert len(after["buffered"]) >= sum(report.reflections.values()) > 0


async def test_ending_a_formed_session_reports_its_failed_consolidation_too() -> None:
    world = await _world(KeyError("content"), settings=MemorySettings())
    await world.memory.form_memories(_s2(world))  # nothing left to form at the end
    before = await _memory(world)
    report = await world.memory.end_session(_s2(world))
    assert report is not None
    assert report.messages == 0
    assert report.consolidations
    assert {o.status for o in report.consolidations} == {"failed"}
    assert all("KeyError" in o.error for o in report.consolidations)
    assert world.memory.reports[-1] is report
    assert await _memory(world) == before


async def test_a_cancelled_consolidation_is_not_swallowed() -> None:
    world = await _world(asyncio.CancelledError())
    with pytest.raises(asyncio.CancelledError):
        await world.memory.form_memories(_s2(world))
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    assert state.pending_messages == 0  # its writes were done before it was cancelled
