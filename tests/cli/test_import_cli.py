"""``eden-memory import`` writes only the export's own agent, unless ``--agent`` or ``--map``
names another (issue 26, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli_verbatim import _fact, _run


def _facts(path: Path, agent: str) -> list[dict[str, object]]:
    listed = _run(path, "facts", "list", "-a", agent, "--json", "--status", "all")
    assert listed.returncode == 0, listed.stderr
    return [json.loads(line) for line in listed.stdout.splitlines()]


def _exported(tmp_path: Path) -> list[str]:
    added = _run(tmp_path, "add-facts", "-", stdin=_fact("Alice lives in Oslo"))
    assert added.returncode == 0, added.stderr
    exported = _run(tmp_path, "export", "-a", "nova")
    assert exported.returncode == 0, exported.stderr
    return exported.stdout.splitlines()


def test_an_export_naming_another_agent_is_refused_in_one_line(tmp_path: Path) -> None:
    header, fact = _exported(tmp_path)
    forged = json.loads(fact)
    forged["fact"]["agent_id"] = "victim"
    (tmp_path / "forged.jsonl").write_text(f"{header}\n{json.dumps(forged)}\n")
    done = _run(tmp_path, "import", "forged.jsonl")
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: line 2 of the import is not valid: its agent_id 'victim'")
    assert _facts(tmp_path, "victim") == []


def test_agent_and_map_import_into_another_agent_once(tmp_path: Path) -> None:
    (tmp_path / "nova.jsonl").write_text("\n".join(_exported(tmp_path)) + "\n")
    first = _run(tmp_path, "import", "nova.jsonl", "--agent", "copy")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["facts"] == 1
    again = _run(tmp_path, "import", "nova.jsonl", "--map", "nova=copy")
    assert json.loads(again.stdout)["facts_already_present"] == 1
    [copied] = _facts(tmp_path, "copy")
    [source] = _facts(tmp_path, "nova")
    assert copied["content"] == source["content"]
    assert copied["id"] != source["id"]


def test_agent_mapping_mistakes_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").write_text("")
    both = _run(tmp_path, "import", "x.jsonl", "--agent", "a", "--map", "b=c")
    assert both.returncode == 2
    assert both.stderr.splitlines() == [
        "error: Invalid value: give --agent or --map, not both (see --help)"
    ]
    bad = _run(tmp_path, "import", "x.jsonl", "--map", "nova")
    assert bad.stderr.splitlines() == [
        "error: Invalid value: --map takes EXPORTED=TARGET, got 'nova' (see --help)"
    ]
