"""The v1 migration end to end, on mongomock and on a real wire-protocol server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from eden_memory.adapters.migration import JsonFileJournal, MongoV1Source
from eden_memory.application.migration import Kind, agent_profiles, rollback_v1
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import AgentId, FactId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.factory import open_memory
from eden_memory.ports.stores import Stores
from eden_memory.testing import KeywordEmbedder, fail_next, memory_stores
from tests.migration.helpers import run, snapshot
from tests.migration.v1_data import (
    AGENT_A_ID,
    AGENT_B_ID,
    NOW,
    SESSION_LIVE,
    USER_1_ID,
    oid,
)

A = AgentId(AGENT_A_ID)


def reasons(report: Any) -> dict[str | None, str]:
    return {i.source_id: i.reason for i in report.issues if not i.reason.startswith("note:")}


async def test_full_migration(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    report = await run(source, store, tmp_path, active_session_episodes=True)
    assert report.balanced()
    user_key = ScopeKey.user(AGENT_A_ID, USER_1_ID)
    blobs = await store.buffers.get_consolidated([user_key, ScopeKey.agent(AGENT_A_ID)])
    assert blobs[user_key].content == "Sam prefers concise answers.\nWorks in marketing."
    assert blobs[user_key].version == 1
    agent_blob = blobs[ScopeKey.agent(AGENT_A_ID)].content
    assert agent_blob == (
        "## Project Alpha\nAlpha launches in spring.\n\n"
        "## Themes\nThe community likes bold colours."
    )
    assert "Old project" not in agent_blob  # paused, not merged
    buffers = await store.buffers.unabsorbed(
        [user_key, ScopeKey.user(AGENT_A_ID, "user-2"), ScopeKey.agent(AGENT_A_ID)]
    )
    by_key = {(r.scope, r.user_id, r.content) for r in buffers}
    assert by_key == {
        (Scope.USER, USER_1_ID, "Always answer in French."),
        (Scope.USER, USER_1_ID, "Never use emojis."),
        (Scope.USER, "user-2", "Call me Sam."),
        (Scope.USER, "user-2", "Directive saved without its agent."),
        (Scope.AGENT, None, "Propose a cheaper venue."),
        (Scope.AGENT, None, "Try a neon palette."),
    }
    live = await store.buffers.unabsorbed([ScopeKey.session(AGENT_A_ID, SESSION_LIVE)])
    assert [r.content for r in live] == ["We planned the launch.", "We picked colours."]

    provenance = report.fact_provenance
    facts = {f.content: f for f in await _facts(store, A)}
    assert set(facts) == {
        "The Alpha budget is 5000 euros.",
        "The Alpha deadline is March 3.",
        "Neon themes performed best.",
    }
    budget = facts["The Alpha budget is 5000 euros."]
    assert budget.scope is Scope.AGENT
    assert (NOW - budget.formed_at).days == 40  # the original time, not the migration's
    assert budget.source_session_id == "s-100"
    assert budget.source_message_ids == (str(oid(20 + 0x1000)), "m-20")
    neon = facts["Neon themes performed best."]
    assert provenance[neon.id]["related_users"] == [USER_1_ID, "user-2"]
    assert neon.source_user_ids == (USER_1_ID, "user-2")  # what erasure by origin reads
    assert neon.contributors == (USER_1_ID, "user-2")
    assert provenance[neon.id]["shard"] == "Themes"

    profiles = await agent_profiles(JsonFileJournal(tmp_path), report.run_id or "")
    assert profiles[AGENT_A_ID] == (
        "## Project Alpha\nRemember budgets and deadlines of Project Alpha.\n\n"
        "## Themes\nTrack theme ideas."
    )
    totals = report.totals()
    assert totals[Kind.AGENT_FACT].written == 4  # three of A, one of B
    assert totals[Kind.USER_REFLECTION].written == 4
    assert report.tallies[AGENT_A_ID][Kind.AGENT_SHARD].written == 2
    assert report.tallies[AGENT_A_ID][Kind.AGENT_SHARD].skipped == 1


async def test_bad_and_unmapped_documents_are_reported(
    source: MongoV1Source, tmp_path: Path
) -> None:
    report = await run(source, memory_stores(), tmp_path)
    why = reasons(report)
    assert "exact duplicate" in why[str(oid(22))]
    assert "empty" in why[str(oid(26))]
    assert "3000 characters" in why[str(oid(27))]
    assert why[str(oid(28))] == "missing content"
    assert why[str(oid(0xDEAD))].startswith("dangling reference")
    assert why[str(oid(50))] == "unknown memory type 'thought'"
    assert why[str(oid(51))] == "missing or unusable agent_id"
    assert str(oid(5)) not in why  # agent-less, but adopted by the user memory listing it
    assert "absorbed" in why[str(oid(4))]
    assert "evicted" in why[str(oid(25))]
    assert "paused" in why[str(SHARD_PAUSED)]
    assert "paused" in why[str(oid(12))]
    assert "paused" in why[str(oid(24))]
    assert "--active-session-episodes" in why[str(oid(40))]
    assert why[str(oid(0x303))] == "missing or unusable user_id"
    assert "user_id" in why[str(oid(61))]
    assert why[str(oid(0x302))] == "empty or missing content"
    # Agent B's empty shard gives no section, its fact still migrates.
    assert "no consolidated content" in why[str(oid(0x504))]
    assert report.tallies[AGENT_B_ID][Kind.AGENT_FACT].written == 1
    assert report.balanced()


async def test_rerun_changes_nothing(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    first = await run(source, store, tmp_path, active_session_episodes=True)
    before = await snapshot(store)
    second = await run(source, store, tmp_path, active_session_episodes=True)
    assert await snapshot(store) == before
    assert second.run_id != first.run_id
    assert not second.resumed
    assert all(t.written == 0 for k, t in second.totals().items() if k is not Kind.INSTRUCTIONS)
    assert second.writes == []
    assert await JsonFileJournal(tmp_path).entries(second.run_id or "") == []
    first_totals = {k: t.written for k, t in first.totals().items()}
    assert {k: t.present for k, t in second.totals().items() if k is not Kind.INSTRUCTIONS} == {
        k: n for k, n in first_totals.items() if k is not Kind.INSTRUCTIONS
    }


@pytest.mark.parametrize("method", ["add_facts", "add_reflections", "replace_consolidated"])
async def test_crash_then_resume(source: MongoV1Source, tmp_path: Path, method: str) -> None:
    clean = memory_stores()
    await run(source, clean, tmp_path / "clean", active_session_episodes=True)

    store = memory_stores()
    fail_next(store, method, RuntimeError("crash"), after=True)
    with pytest.raises(RuntimeError, match="crash"):
        await run(source, store, tmp_path / "run", active_session_episodes=True)
    journal = JsonFileJournal(tmp_path / "run")
    resumed = await run(source, store, tmp_path / "run", active_session_episodes=True)
    assert resumed.resumed
    assert await snapshot(store) == await snapshot(clean)
    assert resumed.balanced()
    # The resumed run owns what the crashed attempt wrote: its rollback removes everything.
    await rollback_v1(store, journal, resumed.run_id or "", NOW)
    assert await snapshot(store) == await snapshot(memory_stores())


class FailingSource:
    """A reader that dies on one agent's session memories, once."""

    def __init__(self, inner: MongoV1Source, agent: str) -> None:
        self.inner = inner
        self.agent = agent
        self.armed = True
        self.label = inner.label

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def session_memories(self, agent_id: str) -> list[Any]:
        if self.armed and agent_id == self.agent:
            self.armed = False
            raise ConnectionError("source went away")
        return await self.inner.session_memories(agent_id)


async def test_reader_crash_then_resume(source: MongoV1Source, tmp_path: Path) -> None:
    clean = memory_stores()
    await run(source, clean, tmp_path / "clean")
    store = memory_stores()
    flaky = FailingSource(source, AGENT_B_ID)  # agent A (sorted first) is migrated already
    with pytest.raises(ConnectionError):
        await run(flaky, store, tmp_path / "run")
    assert (await snapshot(store))[AGENT_A_ID] == (await snapshot(clean))[AGENT_A_ID]
    report = await run(flaky, store, tmp_path / "run")
    assert report.resumed
    assert await snapshot(store) == await snapshot(clean)


async def test_dry_run_writes_nothing(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    report = await run(source, store, tmp_path, dry_run=True, active_session_episodes=True)
    assert report.run_id is None
    assert await snapshot(store) == await snapshot(memory_stores())
    assert _empty_dir(tmp_path)
    real = await run(source, memory_stores(), tmp_path, active_session_episodes=True)
    assert {k: t.as_dict() for k, t in report.totals().items()} == {
        k: t.as_dict() for k, t in real.totals().items()
    }
    assert sorted(report.writes) == sorted(real.writes)


def _empty_dir(path: Path) -> bool:
    return not path.exists() or not any(path.iterdir())


async def _seed_target(store: Stores) -> None:
    """What a target might hold before the migration: another agent's memory, a blob that
    already exists for one v1 user, an empty blob for another."""
    embedder = KeywordEmbedder()
    fact = Fact(
        id=FactId("host-fact"),
        content="The host agent was here first.",
        scope=Scope.AGENT,
        agent_id="host-agent",
        formed_at=NOW,
        created_at=NOW,
        updated_at=NOW,
        embedding_model=embedder.space.model,
        embedding_dim=embedder.space.dimension,
    )
    vectors = (await embedder.embed([fact.content], TextRole.PASSAGE)).vectors
    await store.facts.add_facts([fact], vectors)
    await store.buffers.add_reflections(
        [
            Reflection.in_scope(
                ScopeKey.agent("host-agent"),
                id="host-r",
                content="A host reflection.",
                formed_at=NOW,
                created_at=NOW,
            )
        ]
    )
    existing = ConsolidatedMemory.empty(ScopeKey.user(AGENT_A_ID, USER_1_ID), 300)
    await store.buffers.replace_consolidated(
        existing.evolve(content="Already here.", version=3), None
    )
    empty = ConsolidatedMemory.empty(ScopeKey.agent(AGENT_A_ID), 1200)
    await store.buffers.replace_consolidated(empty, None)


async def test_rollback_restores_the_target(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    await _seed_target(store)
    before = await snapshot(store)
    report = await run(source, store, tmp_path, active_session_episodes=True)
    why = reasons(report)
    assert "already has a different consolidated memory" in why[str(oid(0x301))]
    assert await snapshot(store) != before
    journal = JsonFileJournal(tmp_path)
    undone = await rollback_v1(store, journal, report.run_id or "", NOW)
    assert undone.facts_removed == 4
    assert undone.left == []
    assert await snapshot(store) == before
    # Migrated again after the rollback: the same ids come back, owned by the new run.
    rerun = await run(source, store, tmp_path, active_session_episodes=True)
    migrated = await snapshot(store)
    again = await rollback_v1(store, journal, report.run_id or "", NOW)
    assert again.facts_removed == 0
    assert again.left[0].startswith("already rolled back")
    assert await snapshot(store) == migrated
    await rollback_v1(store, journal, rerun.run_id or "", NOW)
    assert await snapshot(store) == before


async def test_rollback_keeps_what_changed_since(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    report = await run(source, store, tmp_path)
    key = ScopeKey.agent(AGENT_A_ID)
    blob = (await store.buffers.get_consolidated([key]))[key]
    await store.buffers.replace_consolidated(
        blob.evolve(content="Consolidated since.", version=2), 1
    )
    facts = await _facts(store, A)
    updated = facts[0].revised("Merged with newer knowledge.", NOW, space=facts[0].embedding_space)
    await store.facts.update_fact(updated, None, expected_version=1)
    undone = await rollback_v1(store, JsonFileJournal(tmp_path), report.run_id or "", NOW)
    assert any("changed since the migration" in line for line in undone.left)
    assert any("updated since the migration" in line for line in undone.left)
    assert (await store.buffers.get_consolidated([key]))[key].content == "Consolidated since."
    assert [f.content for f in await _facts(store, A)] == ["Merged with newer knowledge."]


async def test_paused_shards_on_request(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    report = await run(source, store, tmp_path, include_paused_shards=True)
    key = ScopeKey.agent(AGENT_A_ID)
    content = (await store.buffers.get_consolidated([key]))[key].content
    assert content.startswith("## Old project (paused in v1)\nOld project notes.")
    assert "Paused shard fact." in {f.content for f in await _facts(store, A)}
    assert "Old prompt." in report.agent_profiles[AGENT_A_ID]


async def test_one_agent_only(source: MongoV1Source, tmp_path: Path) -> None:
    store = memory_stores()
    report = await run(source, store, tmp_path, agent_id=AGENT_B_ID)
    assert set(report.tallies) == {AGENT_B_ID}
    assert await _facts(store, A) == []


async def _facts(store: Stores, agent: AgentId) -> list[Fact]:
    from eden_memory.ports.stores import FactQuery

    return await store.fact_records.list_facts(FactQuery(agent, status=None, limit=1000))


SHARD_PAUSED = oid(0x503)


async def test_erasing_a_migrated_user_erases_what_came_from_them_alone(
    source: MongoV1Source, tmp_path: Path
) -> None:
    """v1's related users are the migrated records' source users: erasure by origin takes a
    fact or note of one user with them, and keeps one of several users without their id."""
    embedder = KeywordEmbedder()
    async with open_memory(store=memory_stores(), embedder=embedder) as memory:
        stores = memory.admin.stores
        report = await run(source, stores, tmp_path, active_session_episodes=True)
        assert report.balanced()

        erased = await memory.admin.erase_user(AGENT_A_ID, USER_1_ID)

        facts = {f.content: f for f in await _facts(stores, A)}
        assert set(facts) == {"Neon themes performed best."}  # budget, deadline: user 1 alone
        assert facts["Neon themes performed best."].source_user_ids == ("user-2",)
        assert facts["Neon themes performed best."].contributors == ("user-2",)
        assert len(erased.facts_removed) == 2
        notes = await stores.buffers.list_reflections(A, None, include_absorbed=True)
        assert {n.content for n in notes} == {"Call me Sam.", "Directive saved without its agent."}

        await memory.admin.erase_user(AGENT_A_ID, "user-2")
        assert await _facts(stores, A) == []
