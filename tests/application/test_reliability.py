"""Failures and concurrency: nothing lost, nothing half-applied, nothing formed twice."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from eden_memory.application.formation.consolidation import Consolidator
from eden_memory.domain.errors import (
    EdenMemoryError,
    InvalidLLMOutputError,
    ProviderError,
    ProviderTimeoutError,
    StoreUnavailableError,
)
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import FactStatus, Reflection
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.domain.settings import ConsolidationSettings, MemorySettings, ScopeNumbers
from eden_memory.ports.llm import LLMRequest, LLMResult, T
from eden_memory.testing import fail_next
from tests.application.story import START, World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")
# Consolidate at every formation, so each formation exercises all seven steps.
EAGER = MemorySettings(
    consolidation=ConsolidationSettings(thresholds=ScopeNumbers(agent=1, user=1, session=1))
)
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


class FlakyLLM:
    """Fails the first ``times`` calls for one purpose, then behaves like ``inner``."""

    def __init__(self, inner: Any, purpose: str, error: Exception | dict[str, Any], times: int = 1):
        self.inner, self.purpose, self.error, self.left = inner, purpose, error, times

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        if request.purpose == self.purpose and self.left > 0:
            self.left -= 1
            if isinstance(self.error, Exception):
                raise self.error
            # A schema-violating answer goes through the real validation path.
            try:
                schema.model_validate(self.error)
            except Exception as error:
                raise InvalidLLMOutputError(f"answer does not fit {schema.__name__}") from error
        result: LLMResult[T] = await self.inner.generate(request, schema)
        return result


async def _prepare(llm: Any = None) -> World:
    world = make_world(STORY, EAGER, llm=llm)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conv, world.messages(*FIRST))
    await world.memory.form_memories(conv)
    world.clock.advance(hours=1)
    await world.memory.record_messages(
        world.memory.conversation(AGENT, "s2", ["alice"]), world.messages(*SECOND)
    )
    return world


async def _snapshot(world: World) -> dict[str, Any]:
    m = world.memory.admin
    facts = await m.list_facts("nova", status=None, limit=1000)
    reflections = await m.list_reflections("nova", include_absorbed=True)
    blobs = await world.stores.note_records.list_consolidated("nova")  # type: ignore[arg-type]
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    return {
        "facts": sorted((f.content, f.status.value, f.version) for f in facts),
        "reflections": sorted((r.scope.value, r.content, r.absorbed) for r in reflections),
        "blobs": sorted((b.scope.value, b.content, b.version) for b in blobs),
        "pending": state.pending_messages if state else None,
    }


async def _expected() -> dict[str, Any]:
    world = await _prepare()
    await world.memory.form_memories(world.memory.conversation(AGENT, "s2", ["alice"]))
    return await _snapshot(world)


STORE_FAULTS = [
    (method, after)
    for method in (
        "get_session",
        "get_facts",
        "known_hashes",
        "semantic_ranking",
        "get_consolidated",
        "unabsorbed",
    )
    for after in (False,)
] + [
    (method, after)
    # claim_messages after its work: the claim taken, the reply lost (issue 27)
    for method in (
        "claim_messages",
        "add_facts",
        "update_fact",
        "complete_claim",
        "commit_consolidation",
    )
    for after in (False, True)
]


async def _run_with_retry(world: World) -> None:
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    with contextlib.suppress(EdenMemoryError):
        await world.memory.form_memories(conv)
    await world.memory.form_memories(conv)  # the retry: a later trigger
    await world.memory.consolidate(conv)  # a later formation's consolidation pass


@pytest.mark.parametrize(("method", "after"), STORE_FAULTS)
async def test_a_store_failure_anywhere_in_a_formation_loses_and_duplicates_nothing(
    method: str, after: bool
) -> None:
    expected = await _expected()
    world = await _prepare()
    fail_next(world.stores, method, StoreUnavailableError(f"{method} lost"), after=after)
    await _run_with_retry(world)
    assert await _snapshot(world) == expected


async def test_an_embedder_failure_loses_and_duplicates_nothing() -> None:
    expected = await _expected()
    world = await _prepare()
    world.embedder.fail_next = ProviderTimeoutError("embedding timed out")
    await _run_with_retry(world)
    assert await _snapshot(world) == expected


LLM_FAULTS = [
    (purpose, error, times)
    for purpose in ("fact_extraction", "dedup", "reflection_extraction", "consolidation")
    for error, times in (
        (ProviderError("503 from the provider"), 1),
        (ProviderTimeoutError("no answer in 30 s"), 1),
        (InvalidLLMOutputError("not JSON"), 2),  # one retry is built in; fail it too
        ({"facts": "nope", "decisions": 3, "agent": 1, "content": None}, 2),
    )
]


@pytest.mark.parametrize(("purpose", "error", "times"), LLM_FAULTS)
async def test_an_llm_failure_anywhere_loses_and_duplicates_nothing(
    purpose: str, error: Exception | dict[str, Any], times: int
) -> None:
    expected = await _expected()
    base = make_world(STORY, EAGER)
    world = await _prepare(FlakyLLM(base.llm, purpose, error, times=0))
    flaky = world.client
    assert isinstance(flaky, FlakyLLM)
    flaky.left = times
    await _run_with_retry(world)
    assert await _snapshot(world) == expected


async def test_one_unusable_answer_is_asked_again_and_the_formation_succeeds() -> None:
    base = make_world(STORY, EAGER)
    world = await _prepare(FlakyLLM(base.llm, "fact_extraction", InvalidLLMOutputError("x"), 0))
    flaky = world.client
    assert isinstance(flaky, FlakyLLM)
    flaky.left = 1
    report = await world.memory.form_memories(world.memory.conversation(AGENT, "s2", ["alice"]))
    assert report is not None
    assert report.usage.llm_calls_by_purpose["fact_extraction"] == 2


async def test_a_failed_formation_gives_its_messages_back_at_once() -> None:
    world = await _prepare()
    fail_next(world.stores, "complete_claim", StoreUnavailableError("down"))
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    with pytest.raises(StoreUnavailableError):
        await world.memory.form_memories(conv)
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    assert state.pending_messages == 4
    assert state.claim_id is None


async def test_a_claim_whose_reply_was_lost_is_taken_back_by_the_next_formation() -> None:
    """The store took the claim but the reply never came: the same worker's next formation
    asks with the same claim id and gets it back, with no wait for the claim to expire; any
    other worker is still refused meanwhile."""
    world = await _prepare()
    fail_next(world.stores, "claim_messages", StoreUnavailableError("reply lost"), after=True)
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    with pytest.raises(StoreUnavailableError):
        await world.memory.form_memories(conv)
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    assert state.claim_id is not None  # the store holds the claim
    other = await world.stores.sessions.claim_messages(
        state.agent_id, state.session_id, "another-worker", world.clock.now(), 60.0, 1, 100
    )
    assert other is None
    report = await world.memory.form_memories(conv)  # at once: the clock has not moved
    assert report is not None
    assert report.messages == 4
    state = await world.stores.sessions.get_session("nova", "s2")  # type: ignore[arg-type]
    assert state is not None
    assert (state.pending_messages, state.claim_id) == (0, None)


async def test_sixteen_concurrent_triggers_run_exactly_one_formation() -> None:
    world = await _prepare()
    conv = world.memory.conversation(AGENT, "s2", ["alice"])
    before = len(world.llm.calls_for("fact_extraction"))
    reports = await asyncio.gather(*(world.memory.form_memories(conv) for _ in range(16)))
    assert sum(r is not None for r in reports) == 1
    assert len(world.llm.calls_for("fact_extraction")) == before + 1


async def test_concurrent_consolidations_of_one_scope_absorb_each_reflection_once() -> None:
    world = make_world(STORY)
    key = ScopeKey.user("nova", "alice")
    notes = [
        Reflection.in_scope(key, id=f"r{i}", content=f"note {i}", formed_at=START, created_at=START)
        for i in range(6)
    ]
    await world.stores.buffers.add_reflections(notes)
    settings = ConsolidationSettings()
    models = world.memory._lifecycle.formation.models
    workers = [Consolidator(world.stores.buffers, models, world.clock, settings) for _ in range(8)]
    outcomes = await asyncio.gather(
        *(w.consolidate(key, ModelRole.REFLECTION_FREE) for w in workers)
    )
    won = [o for o in outcomes if o is not None and o.status == "consolidated"]
    assert len(won) == 1
    assert won[0].absorbed == 6
    stored = await world.stores.buffers.list_reflections("nova", key, include_absorbed=True)  # type: ignore[arg-type]
    assert sorted(r.id for r in stored) == [f"r{i}" for i in range(6)]
    assert {r.absorbed_into_version for r in stored} == {1}
    blob = await world.memory.admin.get_consolidated(key)
    assert blob.version == 1
    assert all(f"note {i}" in blob.content for i in range(6))


async def test_a_retired_fact_keeps_its_content_and_history() -> None:
    world = await _prepare()
    await world.memory.form_memories(world.memory.conversation(AGENT, "s2", ["alice"]))
    [old] = await world.memory.admin.list_facts("nova", status=FactStatus.RETIRED)
    assert old.content == "The Mars festival budget is 50000 dollars"
    assert old.retired_at is not None
