"""``add-facts`` takes what a fact supersedes and until when it holds; ``facts list`` shows it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eden_memory.cli.main import app

SAID = datetime(2026, 1, 5, 10, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDEN_MEMORY_EMBEDDER", "keyword")
    monkeypatch.setenv("EDEN_MEMORY_STORE", "embedded")


def _line(content: str, days: int, **extra: object) -> str:
    said = (SAID + timedelta(days=days)).isoformat()
    return json.dumps({"content": content, "formed_at": said} | extra, default=str)


def test_key_supersedes_and_valid_until_through_the_cli(tmp_path: Path) -> None:
    store, runner = str(tmp_path / "m.db"), CliRunner()
    lines = [
        _line("Alice lives in Boston", 0, key="user.home_city"),
        _line("Alice moved to Denver", 90, key="user.home_city"),
        _line("Alice is in Rome", 1, valid_until=(SAID + timedelta(days=2)).isoformat()),
        _line("Alice is 31", 3, supersedes="no-such-fact"),
    ]
    added = runner.invoke(
        app, ["--store", store, "add-facts", "-a", "nova", "-u", "alice"], input="\n".join(lines)
    )
    assert added.exit_code == 1
    assert "added 3, duplicates 0, rejected 1" in added.output
    assert "line 4: fact no-such-fact to supersede is not stored" in added.output
    listed = runner.invoke(
        app, ["--store", store, "facts", "list", "-a", "nova", "--status", "all"]
    )
    assert listed.exit_code == 0, listed.output
    rows = {line.split("\t")[-1]: line.split("\t")[3] for line in listed.stdout.splitlines()[1:]}
    assert rows == {
        "Alice moved to Denver": "active",
        "Alice lives in Boston": "retired",
        "Alice is in Rome": "expired",
    }
