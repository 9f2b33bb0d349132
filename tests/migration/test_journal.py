"""The file journal: runs, the manifest, and what a crash can leave behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from eden_memory.adapters.migration import JsonFileJournal
from eden_memory.domain.errors import InvalidInputError


async def test_unfinished_runs_are_found_until_finished_or_rolled_back(tmp_path: Path) -> None:
    journal = JsonFileJournal(tmp_path)
    assert await journal.unfinished("job") is None
    await journal.start("run-1", {"fingerprint": "job", "started_at": "2026-01-01"})
    await journal.start("run-2", {"fingerprint": "other", "started_at": "2026-01-02"})
    assert await journal.unfinished("job") == "run-1"
    await journal.record("run-1", [{"type": "fact", "id": "f1"}])
    await journal.finish("run-1", {"run_id": "run-1"})
    assert await journal.unfinished("job") is None
    assert await journal.report("run-1") == {"run_id": "run-1"}
    await journal.mark_rolled_back("run-2", {})
    assert await journal.unfinished("other") is None


async def test_a_line_torn_by_a_crash_is_ignored(tmp_path: Path) -> None:
    journal = JsonFileJournal(tmp_path)
    await journal.start("run-1", {"fingerprint": "job"})
    await journal.record("run-1", [{"type": "fact", "id": "f1"}])
    with (tmp_path / "run-1" / "manifest.jsonl").open("a") as sink:
        sink.write('{"type": "fa')
    assert await journal.entries("run-1") == [{"type": "fact", "id": "f1"}]


async def test_run_ids_cannot_escape_the_folder(tmp_path: Path) -> None:
    journal = JsonFileJournal(tmp_path)
    for bad in ("../x", "a/b", ".hidden"):
        with pytest.raises(InvalidInputError):
            await journal.header(bad)
