"""Every command with input it cannot use: one ``error: …`` line and exit code 1 or 2.

Bad paths (a folder, a missing folder, a file where a folder should be), files that are not
UTF-8, not JSON or nested too deep, numbers out of range, ids no store takes and settings
that do not parse: never a traceback. The commands run in this process, through ``main``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import typer

from eden_memory.cli.main import app, main

HUGE = str(10**30)
DEEP = "[" * 100_000
FACT = {
    "content": "The office opens at 8 am",
    "scope": "agent",
    "formed_at": "2026-01-05T10:00:00Z",
}


def _files(root: Path) -> dict[str, str]:
    """The paths a case names, made under ``root``."""
    (root / "folder").mkdir()
    (root / "a-file").write_text("x", encoding="utf-8")
    (root / "latin1.jsonl").write_bytes(b'{"kind": "header"}\n\xff\xfe\n')
    (root / "deep.jsonl").write_text(DEEP + "\n", encoding="utf-8")
    (root / "bad.json").write_text("{not json", encoding="utf-8")
    (root / "fact-line.jsonl").write_text(
        '{"kind": "header", "format": "eden-memory-export", "version": 1, "agent_id": "nova"}\n'
        '{"kind": "fact", "fact": {"id": "f1"}}\n',
        encoding="utf-8",
    )
    return {
        "folder": str(root / "folder"),
        "missing": str(root / "missing" / "x.jsonl"),
        "under-file": str(root / "a-file" / "x.db"),
        "a-file": str(root / "a-file"),
        "latin1": str(root / "latin1.jsonl"),
        "deep": str(root / "deep.jsonl"),
        "bad-json": str(root / "bad.json"),
        "fact-line": str(root / "fact-line.jsonl"),
    }


UNREACHABLE = "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200"
MIGRATE = ("migrate-v1", "--source-uri", UNREACHABLE, "--source-db", "v1")
# Each case: the arguments, with {name} for a path of ``_files``; and extra environment.
CASES: list[tuple[str, ...]] = [
    ("export", "-a", "nova", "-o", "{folder}"),
    ("export", "-a", "nova", "-o", "{missing}"),
    ("export", "-a", "nova", "-o", "{under-file}"),
    ("import", "{folder}"),
    ("import", "{missing}"),
    ("import", "{latin1}"),
    ("import", "{deep}"),
    ("import", "{bad-json}"),
    ("import", "{fact-line}"),
    ("add-facts", "{folder}", "-a", "nova"),
    ("add-facts", "{missing}", "-a", "nova"),
    ("add-facts", "{deep}", "-a", "nova"),
    ("add-facts", "{latin1}", "-a", "nova"),
    ("add-facts", "{bad-json}", "-a", "nova", "--batch", HUGE),
    ("add-facts", "{bad-json}", "-a", "nova", "--max-words", "-1"),
    ("calibrate", "--pairs", "{folder}"),
    ("calibrate", "--pairs", "{missing}"),
    ("calibrate", "--pairs", "{deep}"),
    ("calibrate", "--pairs", "{bad-json}"),
    ("--store", "{folder}", "stats", "-a", "nova"),
    ("--store", "{under-file}", "stats", "-a", "nova"),
    ("demo", "--store", "{folder}"),
    ("demo", "--store", "{under-file}"),
    ("demo", "--llm", "bogus"),
    ("context", "-a", "nova", "-s", "a b"),
    ("context", "-a", "名前 x", "-s", "s1"),
    ("search", "q", "-a", "nova", "--top-k", HUGE),
    ("search", "q", "-a", "nova", "--top-k", "²"),
    ("search", "1", "2", "3", "4", "-a", "nova"),
    ("users", "-a", "nova", "--limit", "0"),
    ("users", "-a", "nova", "--limit", HUGE),
    ("users", "-a", "nova", "--after", "a b"),
    ("agents", "--limit", "0"),
    ("agents", "--after", "a b"),
    ("erase-user", "-a", "nova", "-u", "a b", "--yes"),
    ("erase-user", "-a", "nova", "-u", "u-1"),  # not a terminal, no --yes: nothing erased
    ("stats", "-a", "nova", "-u", "\x7f"),
    ("consolidation-status", "-a", "x" * 5000),
    ("process-cold", "--limit", HUGE),
    ("process-cold", "--limit", "-1"),
    ("reembed", "-a", "nova", "--batch", HUGE),
    ("reembed", "-a", "nova", "--batch", "0"),
    ("facts", "list", "-a", "nova", "--limit", HUGE),
    ("facts", "list", "-a", "nova", "--status", "bogus"),
    ("facts", "show", "-a", "nova", "no such"),
    ("facts", "show", "-a", "nova", "missing"),
    ("facts", "show", "-a", "nova", "m"),
    ("facts", "edit", "-a", "nova", "f1", "text", "--expected-version", HUGE),
    ("facts", "delete", "-a", "nova", "missing", "--yes"),
    ("facts", "history", "-a", "nova", "missing"),
    ("reflections", "list", "-a", "nova", "--user", "u", "--session", "s"),
    ("reflections", "edit", "-a", "nova", "r1", "text", "--expected-version", HUGE),
    ("reflections", "history", "-a", "nova", "missing"),
    ("reflections", "delete", "-a", "nova", "missing"),
    ("console", "-a", "nova", "--port", HUGE),
    ("console", "-a", "nova", "--port", "-5"),
    ("mcp", "-a", "nova", "--transport", "http", "--port", HUGE),
    ("mcp", "-a", "nova", "--transport", "carrier-pigeon"),
    ("local-llm", "--home", "{a-file}", "--prepare"),
    ("local-llm", "--port", HUGE, "--home", "{a-file}", "--prepare"),
    ("local-llm", "--threads", "0", "--home", "{a-file}", "--prepare"),
    ("migrate-v1", "--source-uri", "mongodb://[", "--source-db", "v1"),
    ("migrate-v1", "--source-uri", UNREACHABLE, "--source-db", "a.b"),
    (*MIGRATE, "--dry-run", "--active-within-hours", "1e308"),
    (*MIGRATE, "--dry-run", "--active-within-hours", "nan"),
    (*MIGRATE, "--batch-size", "0"),
    (*MIGRATE, "--dry-run"),  # no server there: one line, after 0.2 s
    ("rollback-v1", "--run-id", "../x", "--state-dir", "{a-file}"),
    ("rollback-v1", "--run-id", "r1", "--state-dir", "{a-file}"),
    ("setup-indexes", "--timeout-seconds", "-1"),
    ("setup-indexes", "--timeout-seconds", "nan"),
    ("setup-indexes", "--dry-run", "--timeout-seconds", "inf"),
]
SETTINGS: list[dict[str, str]] = [
    {"EDEN_MEMORY_STORE": "bogus"},
    {"EDEN_MEMORY_MEMORY__SEARCH__DEFAULT_TOP_K": "²"},
    {"EDEN_MEMORY_MEMORY__FORMATION__CLAIM_TTL_SECONDS": "-1"},
]
COMMANDS_WALKED = {case[0] for case in CASES} | {"--store"}

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EDEN_MEMORY_EMBEDDER", "keyword")
    monkeypatch.setenv("EDEN_MEMORY_STORE", "embedded")
    monkeypatch.setenv("EDEN_MEMORY_STORE_PATH", str(tmp_path / "memory.db"))
    monkeypatch.delenv("EDEN_MEMORY_MONGODB_URI", raising=False)
    paths = _files(tmp_path)

    def go(*args: str) -> tuple[int, str, str]:
        """The exit code, standard error and standard output of one command."""
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["eden-memory", *(a.format(**paths) for a in args)])
        with pytest.raises(SystemExit) as ended:
            main()
        out, err = capsys.readouterr()
        return int(ended.value.code or 0), err, out

    return go


def _refused_in_one_line(code: int, err: str, out: str = "") -> None:
    assert code in (1, 2), err
    assert "Traceback" not in err
    last = err.rstrip("\n").splitlines()[-1]
    assert last.startswith(("error: ", "line ")), err
    assert len(last) < 2000


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a)[:60])
def test_input_a_command_cannot_use_is_one_error_line(run: Run, args: tuple[str, ...]) -> None:
    _refused_in_one_line(*run(*args))


@pytest.mark.parametrize("variables", SETTINGS, ids=lambda v: next(iter(v)))
def test_settings_that_do_not_parse_are_one_error_line_naming_the_setting(
    run: Run, monkeypatch: pytest.MonkeyPatch, variables: dict[str, str]
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    code, err, _ = run("stats", "-a", "nova")
    _refused_in_one_line(code, err)
    assert "the settings are not valid" in err


def test_the_walk_names_every_command() -> None:
    assert set(typer.main.get_command(app).commands) <= COMMANDS_WALKED  # type: ignore[attr-defined]


def test_export_to_a_folder_names_it_and_reads_nothing(run: Run, tmp_path: Path) -> None:
    code, err, _ = run("export", "-a", "nova", "-o", "{folder}")
    assert code == 1
    assert err == f"error: {tmp_path / 'folder'} is a folder: give the path of a file\n"


def test_export_into_a_missing_folder_names_the_folder(run: Run, tmp_path: Path) -> None:
    code, err, _ = run("export", "-a", "nova", "-o", "{missing}")
    assert code == 1
    assert err == f"error: there is no folder {tmp_path / 'missing'} to write x.jsonl in\n"


def test_a_line_nested_too_deep_is_reported_and_the_valid_lines_are_still_added(
    run: Run, tmp_path: Path
) -> None:
    source = tmp_path / "facts.jsonl"
    lines = [json.dumps(FACT), DEEP, json.dumps(FACT | {"content": "Parking is free"})]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err, out = run("add-facts", str(source), "-a", "nova")
    assert code == 1
    assert "added 2, duplicates 0, rejected 1" in out
    assert err.splitlines()[-1] == "line 2: not valid JSON (nested too deep)"
    code, _, out = run("facts", "list", "-a", "nova", "--json")
    assert code == 0
    stored = {json.loads(line)["content"] for line in out.splitlines()}
    assert stored == {"The office opens at 8 am", "Parking is free"}
