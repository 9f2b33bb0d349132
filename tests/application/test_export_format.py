"""The export's lines, byte for byte: what a host's backups hold must not change by accident.

The store also holds recorded sessions (their profiles and counters), which the export leaves
out: changing how a session state is shaped in code must not change a single exported byte.
"""

from __future__ import annotations

from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import AgentMemoryConfig, Scope, ScopeKey
from tests.application.story import START, World, make_world
from tests.unit.domain.builders import make_fact, make_reflection

AGENT = AgentMemoryConfig("agent-1", user_memory_enabled=False, memory_instructions="Be brief.")

EXPECTED = [
    (
        '{"kind": "header", "format": "eden-memory-export", "version": 1, '
        '"agent_id": "agent-1", "exported_at": "2026-03-02T09:00:00+00:00", '
        '"embedding": {"model": "fake-embedder", "dimension": 8}}'
    ),
    (
        '{"kind": "fact", "fact": {"id": "f1", "content": "Alice likes green tea — très", '
        '"content_hash": "0cab8a44b84654b32414fdd1c69352609b675d46cbcd1cd59a62a0beaf3353ea", '
        '"scope": "user", "agent_id": "agent-1", "user_id": "user-1", '
        '"source_session_id": null, "source_message_ids": [], '
        '"formed_at": "2026-03-02T09:00:00Z", "created_at": "2026-03-02T09:00:00Z", '
        '"updated_at": "2026-03-02T09:00:00Z", "version": 1, "history": [], '
        '"access_count": 0, "last_accessed_at": null, "embedding_model": "fake-embedder", '
        '"embedding_dim": 8, "status": "active", "retired_at": null, "retired_reason": "", '
        '"superseded_by": null, "source_user_ids": [], "contributors": [], '
        '"contributor_sessions": [], "retired_by": null}, '
        '"vector": [0.5, -0.25, 0.0, 1.0, 0.125, 0.0, 0.0, 0.75]}'
    ),
    (
        '{"kind": "reflection", "reflection": {"id": "r1", '
        '"content": "Prefers short answers", "scope": "user", "agent_id": "agent-1", '
        '"user_id": "user-1", "session_id": null, "source_session_id": "s-1", '
        '"source_message_ids": [], "formed_at": "2026-03-02T09:00:00Z", '
        '"created_at": "2026-03-02T09:00:01Z", "absorbed": false, "absorbed_at": null, '
        '"absorbed_into_version": null, "source_user_ids": [], "version": 1, "history": []}}'
    ),
    (
        '{"kind": "consolidated", "consolidated": {"scope": "agent", '
        '"agent_id": "agent-1", "user_id": null, "session_id": null, '
        '"content": "- Likes tea", "word_limit": 50, "version": 2, '
        '"last_consolidated_at": null, "updated_at": "2026-03-02T09:00:00Z", '
        '"source_session_ids": [], "source_user_ids": [], "needs_rebuild": false}}'
    ),
]


async def _world() -> World:
    world = make_world()
    for session, users in (("s-1", ["user-1"]), ("g-1", ["user-1", "user-2"])):
        conv = world.memory.conversation(AGENT, session, users, tier=9)
        await world.memory.record_messages(conv, world.messages("hello", "über — ü"))
    fact = make_fact("f1", "Alice likes green tea — très", formed_at=START)
    await world.stores.facts.add_facts([fact], [[0.5, -0.25, 0.0, 1.0, 0.125, 0.0, 0.0, 0.75]])
    await world.stores.buffers.add_reflections(
        [make_reflection("r1", ScopeKey.user("agent-1", "user-1"), formed_at=START)]
    )
    blob = ConsolidatedMemory(
        scope=Scope.AGENT, agent_id="agent-1", content="- Likes tea", word_limit=50, version=2
    )
    await world.stores.buffers.replace_consolidated(blob.evolve(updated_at=START), None)
    return world


async def test_the_export_of_a_store_with_recorded_sessions_is_unchanged() -> None:
    world = await _world()
    group = await world.stores.sessions.get_session(AgentId("agent-1"), SessionId("g-1"))
    assert group is not None
    assert (group.profile.premium, group.pending_messages) == (True, 2)
    lines = [line async for line in world.memory.admin.export("agent-1")]
    assert lines == EXPECTED
