"""No command for one agent changes a record of another (issue 26, item 3)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from eden_memory.config import EdenMemoryConfig
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey
from eden_memory.factory import open_memory
from tests.cli.test_cli_verbatim import _run


async def _seed(path: Path) -> list[str]:
    """Orion's fact and note in the store the commands open; returns orion's export."""
    async with open_memory(EdenMemoryConfig(store_path=path, embedder="keyword")) as memory:
        now = memory.clock.now()
        fact = {"id": "f-orion", "content": "Orion's code is 0000", "formed_at": now}
        await memory.admin.add_facts([fact | {"scope": "agent", "agent_id": "orion"}])
        note = Reflection.in_scope(
            ScopeKey.agent("orion"),
            id="r-orion",
            content="Orion's note",
            formed_at=now,
            created_at=now,
        )
        await memory.admin.stores.buffers.add_reflections([note])
        return [line async for line in memory.admin.export("orion")][1:]


async def _orion(path: Path) -> list[str]:
    async with open_memory(EdenMemoryConfig(store_path=path, embedder="keyword")) as memory:
        return [line async for line in memory.admin.export("orion")][1:]


@pytest.mark.parametrize(
    "command",
    [
        ("facts", "edit", "-a", "nova", "f-orion", "leaked", "--expected-version", "1"),
        ("facts", "delete", "-a", "nova", "f-orion", "--yes"),
        ("reflections", "edit", "-a", "nova", "r-orion", "leaked", "--expected-version", "1"),
        ("reflections", "delete", "-a", "nova", "r-orion"),
    ],
)
def test_a_command_for_one_agent_never_changes_a_record_of_another(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    before = asyncio.run(_seed(tmp_path / "memory.db"))
    done = _run(tmp_path, *command)
    assert done.returncode == 1
    assert done.stderr.strip().startswith("error: agent 'nova' has no")
    assert asyncio.run(_orion(tmp_path / "memory.db")) == before
