"""``memory.admin`` holds a ``Management`` and offers its record methods as its own."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime

from eden_memory.application.administration.management import Management
from eden_memory.application.service import MemoryService
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _service() -> MemoryService:
    return MemoryService(memory_stores(), KeywordEmbedder(), ScriptedLLM([]), FakeClock(NOW))


def _record_methods() -> list[str]:
    return [n for n, v in vars(Management).items() if inspect.isfunction(v) and n[0] != "_"]


def test_admin_offers_every_record_method_with_its_signature_and_docstring() -> None:
    admin = _service().admin
    assert not isinstance(admin, Management)
    for name in _record_methods():
        offered, held = getattr(admin, name), getattr(admin.records, name)
        assert inspect.signature(offered) == inspect.signature(held), name
        assert getattr(type(admin), name).__doc__ == held.__doc__, name
        assert inspect.iscoroutinefunction(offered), name


async def test_a_record_edited_through_admin_is_the_one_its_records_hold() -> None:
    memory = _service()
    said = {"agent_id": "nova", "scope": "agent", "formed_at": NOW.isoformat()}
    report = await memory.admin.add_facts([{"content": "Alice drinks green tea", **said}])
    assert not report.rejected
    [fact] = await memory.admin.list_facts("nova")
    edited = await memory.admin.edit_fact(
        "nova", fact.id, "Alice drinks oolong", expected_version=1
    )
    assert await memory.admin.records.get_fact("nova", fact.id) == edited
    assert [r.content for r in await memory.admin.fact_history("nova", fact.id)] == [
        "Alice drinks green tea",
        "Alice drinks oolong",
    ]
