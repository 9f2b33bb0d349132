"""A reflection row written before reflections had versions reads as version 1 and is edited
by compare-and-set like any other: no migration of the file is needed."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey

T0 = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
KEY = ScopeKey.user("agent", "user")


async def test_a_reflection_stored_without_a_version_is_version_one(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    note = Reflection.in_scope(
        KEY, id=ReflectionId("r1"), content="Likes tea", formed_at=T0, created_at=T0
    )
    async with await open_sqlite(path) as store:
        await store.buffers.add_reflections([note])
    with sqlite3.connect(path) as raw:  # the row as an older eden-memory wrote it
        raw.execute("UPDATE reflections SET doc = json_remove(doc, '$.version', '$.history')")
        assert '"version"' not in raw.execute("SELECT doc FROM reflections").fetchone()[0]
    async with await open_sqlite(path) as store:
        old = await store.buffers.get_reflection(note.id)
        assert old is not None
        assert (old.version, old.history) == (1, ())
        with pytest.raises(ConflictError):
            await store.note_records.update_reflection(old.revised("Likes coffee", T0), 2)
        edited = old.revised("Likes green tea", T0)
        assert await store.note_records.update_reflection(edited, 1) == edited
        assert await store.buffers.get_reflection(note.id) == edited
