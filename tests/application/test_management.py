"""Management: read, edit, delete, inspect, erase, export and import."""

from __future__ import annotations

import pytest

from eden_memory.domain.errors import ConflictError, InvalidMemoryTextError, NotFoundError
from eden_memory.domain.scopes import AgentMemoryConfig, Scope, ScopeKey
from tests.application.story import World, make_world
from tests.application.test_story import STORY

AGENT = AgentMemoryConfig("nova")


async def _world() -> World:
    world = make_world(STORY)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(
        conv,
        world.messages(
            "my email is alice@example.com",
            "I work at Acme Corp",
            "please keep answers short",
            "the Mars festival budget is 50000 dollars",
        ),
    )
    await world.memory.form_memories(conv)
    group = world.memory.conversation(AGENT, "g1", ["alice", "bob"])
    await world.memory.record_messages(
        group, world.messages("hello everyone", "x", "y", "z", author="bob")
    )
    await world.memory.form_memories(group)
    return world


async def test_an_edited_fact_is_reembedded_and_keeps_its_history() -> None:
    world = await _world()
    m = world.memory.admin
    fact = next(f for f in await m.list_facts("nova") if "Acme" in f.content)
    edited = await m.edit_fact("nova", fact.id, "Alice works at Globex", expected_version=1)
    assert edited.version == 2
    assert [h.content for h in await m.fact_history("nova", fact.id)] == [
        "Alice works at Acme Corp",
        "Alice works at Globex",
    ]
    conv = world.memory.conversation(AGENT, "s9", ["alice"])
    found = await world.memory.search_facts(conv, ["Globex"])
    assert [r.fact.id for r in found.results] == [fact.id]


async def test_ids_of_another_agent_are_not_found_and_bad_text_is_refused() -> None:
    world = await _world()
    m = world.memory.admin
    fact = (await m.list_facts("nova"))[0]
    with pytest.raises(NotFoundError):
        await m.get_fact("other-agent", fact.id)
    with pytest.raises(NotFoundError):
        await m.delete_fact("nova", "no-such-fact")
    with pytest.raises(InvalidMemoryTextError):
        await m.edit_fact("nova", fact.id, "word " * 31, expected_version=fact.version)
    with pytest.raises(InvalidMemoryTextError):
        await m.edit_fact("nova", fact.id, "bad \x00 byte", expected_version=fact.version)


async def test_a_deleted_fact_is_gone_everywhere() -> None:
    world = await _world()
    m = world.memory.admin
    fact = next(f for f in await m.list_facts("nova") if "email" in f.content)
    await m.delete_fact("nova", fact.id)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    assert "alice@example.com" not in (await world.memory.get_context(conv)).xml
    found = await world.memory.search_facts(conv, ["alice email"])
    assert all("example.com" not in r.fact.content for r in found.results)


async def test_buffered_reflections_can_be_edited_and_deleted_but_absorbed_ones_cannot() -> None:
    world = await _world()
    m = world.memory.admin
    key = ScopeKey.user("nova", "alice")
    [note] = await m.list_reflections("nova", key)
    edited = await m.edit_reflection(
        "nova", note.id, "Alice wants very short answers", expected_version=note.version
    )
    assert edited.content == "Alice wants very short answers"
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.consolidate(conv, force=True)
    with pytest.raises(ConflictError):
        await m.delete_reflection("nova", note.id)
    blob = await m.get_consolidated(key)
    assert "Alice wants very short answers" in blob.content


async def test_a_blob_can_be_replaced_within_its_word_limit() -> None:
    world = await _world()
    m = world.memory.admin
    key = ScopeKey.user("nova", "alice")
    replaced = await m.replace_consolidated(
        key, "[PREFERENCES]\n- Short answers", expected_version=0
    )
    assert replaced.version == 1
    assert (await m.get_consolidated(key)).content == "[PREFERENCES]\n- Short answers"
    with pytest.raises(InvalidMemoryTextError):
        await m.replace_consolidated(key, "word " * 301, expected_version=1)


async def test_stats_and_consolidation_status_describe_each_scope() -> None:
    world = await _world()
    stats = {s.key.scope: s for s in await world.memory.admin.stats("nova", "alice", "s1")}
    assert stats[Scope.USER].buffered_reflections == 1
    assert stats[Scope.USER].active_facts == 2
    assert stats[Scope.AGENT].active_facts == 1
    assert stats[Scope.SESSION].active_facts is None
    status = {
        s.key.scope: s for s in await world.memory.admin.consolidation_status("nova", "alice", "s1")
    }
    assert status[Scope.USER].threshold == 4
    assert not status[Scope.USER].due


async def test_erasing_a_user_removes_their_memory_and_what_the_agent_learned_only_from_them() -> (
    None
):
    world = await _world()
    m = world.memory.admin
    [agent_fact] = [f for f in await m.list_facts("nova") if f.scope is Scope.AGENT]
    assert agent_fact.contributors == ("alice",)
    report = await world.memory.admin.erase_user("nova", "alice")
    assert report.sessions == ["s1"]
    assert report.user_scope_records >= 3
    assert report.facts_removed == [agent_fact.id]  # its only source was alice
    assert await m.list_facts("nova", status=None) == []
    assert await m.list_reflections("nova", ScopeKey.user("nova", "alice")) == []
    assert await world.stores.sessions.get_session("nova", "s1") is None  # type: ignore[arg-type]
    assert await world.stores.sessions.get_session("nova", "g1") is not None  # type: ignore[arg-type]


async def test_export_then_import_into_an_empty_store_loses_nothing() -> None:
    world = await _world()
    await world.memory.consolidate(world.memory.conversation(AGENT, "s1", ["alice"]), force=True)
    lines = [line async for line in world.memory.admin.export("nova")]
    target = make_world(STORY)
    report = await target.memory.admin.import_lines(lines)
    assert report.facts == 3
    assert report.facts_reembedded == 0
    again = [line async for line in target.memory.admin.export("nova")]
    assert again[1:] == lines[1:]  # everything but the header's time
    second = await target.memory.admin.import_lines(lines)
    assert second.facts == 0
    assert second.facts_already_present == 3


async def test_a_malformed_import_writes_nothing() -> None:
    world = await _world()
    lines = [line async for line in world.memory.admin.export("nova")]
    target = make_world(STORY)
    with pytest.raises(Exception, match="line 3"):
        await target.memory.admin.import_lines([*lines[:2], '{"kind": "fact", "fact": {"id": 1}}'])
    assert await target.memory.admin.list_facts("nova") == []
