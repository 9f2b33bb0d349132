"""The pure mapping, without a database: limits, episode windows, ordering."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from eden_memory.application.migration import Kind, MigrationOptions, plan_agent
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.scopes import Scope
from eden_memory.domain.settings import ConsolidationSettings

NOW = datetime(2026, 1, 15, tzinfo=UTC)
SPACE = EmbeddingSpace("test", 8)
LIMITS = ConsolidationSettings().word_limits


def plan(
    users: list[dict[str, Any]] | None = None,
    shards: list[dict[str, Any]] | None = None,
    memories: list[dict[str, Any]] | None = None,
    **options: Any,
) -> Any:
    by_id = {m["_id"]: m for m in memories or []}
    return plan_agent(
        "agent", users or [], shards or [], by_id, MigrationOptions(**options), NOW, SPACE, LIMITS
    )


def test_only_the_newest_episodes_of_an_active_session() -> None:
    episodes = [
        {
            "_id": f"e{i}",
            "agent_id": "agent",
            "memory_type": "episode",
            "source_session_id": "live",
            "content": f"Episode {i}.",
            "createdAt": NOW - timedelta(minutes=10 * (10 - i)),
        }
        for i in range(10)
    ]
    result = plan(memories=episodes, active_session_episodes=True)
    kept = [p.reflection.content for p in result.reflections]
    assert kept == [f"Episode {i}." for i in range(9, 1, -1)]
    assert all(p.reflection.scope is Scope.SESSION for p in result.reflections)
    assert result.skipped_counts[Kind.SESSION_REFLECTION] == 2


def test_a_blob_over_the_word_limit_is_kept_with_a_note() -> None:
    words = " ".join(["word"] * 400)
    result = plan(users=[{"_id": "u", "agent_id": "agent", "user_id": "alice", "content": words}])
    assert len(result.blobs) == 1
    assert any("over the 300-word limit" in i.reason for i in result.issues)


def test_an_oversize_agent_blob_skips_its_shards() -> None:
    shards = [
        {"_id": f"s{i}", "agent_id": "agent", "shard_name": f"S{i}", "content": "x" * 60_000}
        for i in range(2)
    ]
    result = plan(shards=shards)
    assert result.blobs == []
    assert result.skipped_counts[Kind.AGENT_SHARD] == 2
    assert all("100000" in i.reason for i in result.issues)


def test_control_characters_are_reported_not_stripped() -> None:
    memories = [{"_id": "f", "agent_id": "agent", "memory_type": "fact", "content": "a\x00b"}]
    result = plan(shards=[{"_id": "s", "agent_id": "agent", "facts": ["f"]}], memories=memories)
    assert result.facts == []
    assert any("U+0000" in i.reason for i in result.issues)
    assert any("no shard_name" in i.reason for i in result.issues)
