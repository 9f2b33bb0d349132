"""``add-facts``: JSON Lines from a file or stdin into the embedded store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from eden_memory.cli.ingest import add_facts_command
from eden_memory.cli.runtime import State

LINES = [
    {"content": "Alice's email is alice@acme.example", "formed_at": "2026-01-05T10:00:00+00:00"},
    {"content": "The office opens at 8 am", "scope": "agent", "formed_at": "2026-01-05T10:00:00Z"},
    {"content": "alice's email is alice@acme.example.", "formed_at": "2026-01-06T10:00:00Z"},
]


def _app(store: Path) -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def options(ctx: typer.Context) -> None:
        ctx.obj = State(store_path=store)

    app.command("add-facts")(add_facts_command)
    return app


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDEN_MEMORY_EMBEDDER", "keyword")
    monkeypatch.setenv("EDEN_MEMORY_STORE", "embedded")


def test_add_facts_from_a_file_then_from_stdin(tmp_path: Path) -> None:
    app, runner = _app(tmp_path / "m.db"), CliRunner()
    source = tmp_path / "facts.jsonl"
    source.write_text("\n".join(json.dumps(x) for x in LINES) + "\n\n", encoding="utf-8")
    first = runner.invoke(app, ["add-facts", str(source), "-a", "nova", "-u", "alice"])
    assert first.exit_code == 0, first.output
    assert "added 2, duplicates 1, rejected 0, embedding calls 1" in first.output
    again = runner.invoke(app, ["add-facts", "-a", "nova", "-u", "alice"], input=source.read_text())
    assert again.exit_code == 0, again.output
    assert "added 0, duplicates 3" in again.output


def test_bad_lines_are_reported_by_number_and_the_rest_is_added(tmp_path: Path) -> None:
    app, runner = _app(tmp_path / "m.db"), CliRunner()
    text = "\n".join(
        [
            json.dumps(LINES[0]),
            "{not json",
            json.dumps({"content": "no time"}),
            json.dumps(LINES[1]),
        ]
    )
    result = runner.invoke(app, ["add-facts", "-", "-a", "nova", "-u", "alice"], input=text)
    assert result.exit_code == 1
    assert "added 2, duplicates 0, rejected 2" in result.output
    assert "line 2: not valid JSON" in result.output
    assert "line 3: formed_at" in result.output


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(_app(tmp_path / "m.db"), ["add-facts", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "no file" in result.output
