"""Edits from the command line name the version they were based on; a stale one is refused."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey
from tests.cli.test_cli import _run

AGENT = "aurora-planner"


async def _buffer_a_note(path: Path) -> None:
    now = datetime.now(UTC)
    note = Reflection.in_scope(
        ScopeKey.agent(AGENT),
        id=ReflectionId("r-cli"),
        content="The team likes afternoons",
        formed_at=now,
        created_at=now,
    )
    async with await open_sqlite(path) as store:
        await store.buffers.add_reflections([note])


def test_an_edit_on_a_version_that_moved_on_is_refused_with_the_newer_text(
    tmp_path: Path,
) -> None:
    assert _run(tmp_path, "demo", "--store", "demo.db").returncode == 0
    exported = [
        json.loads(line)
        for line in _run(tmp_path, "export", "-a", AGENT).stdout.split("\n")
        if line
    ]
    fact = next(r["fact"] for r in exported if r["kind"] == "fact" and r["fact"]["version"] == 1)
    edit = ["facts", "edit", "-a", AGENT, fact["id"]]
    first = _run(tmp_path, *edit, "Alice books the venue", "--expected-version", "1")
    assert first.returncode == 0, first.stderr
    assert "version 2" in first.stdout
    second = _run(tmp_path, *edit, "Bob books the venue", "--expected-version", "1")
    assert second.returncode == 1
    assert "changed since version 1" in second.stderr
    assert "Alice books the venue" in second.stderr
    assert _run(tmp_path, *edit, "Carol books the venue").returncode == 2  # no version given
    asyncio.run(_buffer_a_note(tmp_path / "demo.db"))
    listed = _run(tmp_path, "reflections", "list", "-a", AGENT, "--json").stdout.splitlines()
    note = next(n for n in map(json.loads, listed) if n["id"] == "r-cli")
    assert note["v"] == "1"
    change = ["reflections", "edit", "-a", AGENT, note["id"]]
    assert (
        _run(tmp_path, *change, "The team likes mornings", "--expected-version", "1").returncode
        == 0
    )
    stale = _run(tmp_path, *change, "The team likes nights", "--expected-version", "1")
    assert stale.returncode == 1
    assert "The team likes mornings" in stale.stderr
    history = _run(tmp_path, "reflections", "history", "-a", AGENT, note["id"]).stdout
    assert note["content"] in history
    assert "The team likes mornings" in history
