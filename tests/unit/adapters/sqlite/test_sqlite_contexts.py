"""Schema version 12 keeps contexts with their sessions; a version-11 file upgrades to it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.schema import MIGRATIONS, SCHEMA_VERSION, migrate
from eden_memory.application.context.assembly import ContextLabels, recipe
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _version_11_file(path: Path) -> None:
    """What the previous release made: every table but ``session_contexts``."""
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA journal_mode = WAL")
        raw.execute("BEGIN IMMEDIATE")
        migrate(raw, 11, MIGRATIONS)
        raw.execute("COMMIT")
    raw.close()


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    raw.close()
    return {name for (name,) in rows}


async def test_a_version_11_file_opens_and_keeps_contexts_from_then_on(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    _version_11_file(path)
    assert "session_contexts" not in _tables(path)
    stores = await open_sqlite(path)
    try:
        memory = MemoryService(stores, KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW))
        fact = {"content": "Alice likes green tea", "agent_id": "nova", "user_id": "alice"}
        report = await memory.admin.add_facts([fact | {"formed_at": NOW}])
        assert len(report.added) == 1
        conv = memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
        built = await memory.get_context(conv)
        await memory.wait_for_background()  # the copy is saved off the caller's path
        scopes = conv.scopes(True)
        made = recipe(scopes, MemorySettings().facts, ContextLabels())
        stored = await stores.contexts.load_context(scopes, made)
    finally:
        await stores.close()
    assert stored is not None
    assert stored.xml == built.xml
    assert "green tea" in stored.xml
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    raw.close()
