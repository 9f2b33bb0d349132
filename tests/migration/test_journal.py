"""The file journal: runs, the manifest, and what a crash can leave behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from eden_memory.adapters.migration import JsonFileJournal
from eden_memory.domain.errors import InvalidInputError, StoreCorruptedError


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


async def test_a_damaged_header_is_named_not_a_raw_json_error(tmp_path: Path) -> None:
    journal = JsonFileJournal(tmp_path)
    await journal.start("run-1", {"fingerprint": "job"})
    (tmp_path / "run-1" / "header.json").write_text('{"fingerprint": "jo', encoding="utf-8")
    with pytest.raises(StoreCorruptedError, match=r"run-1/header.json is damaged"):
        await journal.unfinished("job")
    (tmp_path / "run-1" / "header.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(StoreCorruptedError, match="a JSON list, not an object"):
        await journal.header("run-1")
    (tmp_path / "run-1" / "header.json").write_bytes(b"\xff\xfe{}")
    with pytest.raises(StoreCorruptedError, match=r"header\.json is damaged"):
        await journal.header("run-1")


async def test_a_damaged_report_is_named(tmp_path: Path) -> None:
    journal = JsonFileJournal(tmp_path)
    await journal.start("run-1", {"fingerprint": "job"})
    await journal.finish("run-1", {"run_id": "run-1"})
    (tmp_path / "run-1" / "report.json").write_text("{", encoding="utf-8")
    with pytest.raises(StoreCorruptedError, match=r"report\.json is damaged"):
        await journal.report("run-1")


async def test_a_damaged_line_before_the_last_is_refused_not_skipped(tmp_path: Path) -> None:
    """Only a crash mid-append tears a line, and only the last: an earlier damaged line
    records a write that happened, which a rollback must not miss."""
    journal = JsonFileJournal(tmp_path)
    await journal.start("run-1", {"fingerprint": "job"})
    await journal.record("run-1", [{"type": "fact", "id": "f1"}, {"type": "fact", "id": "f2"}])
    manifest = tmp_path / "run-1" / "manifest.jsonl"
    first, second = manifest.read_text(encoding="utf-8").splitlines()
    manifest.write_text(first[:-3] + "\n" + second + "\n", encoding="utf-8")
    with pytest.raises(StoreCorruptedError, match=r"manifest\.jsonl is damaged.*line 1"):
        await journal.entries("run-1")
    manifest.write_text(first + "\n[]\n" + second + "\n", encoding="utf-8")
    with pytest.raises(StoreCorruptedError, match="line 2 is a JSON list"):
        await journal.entries("run-1")
