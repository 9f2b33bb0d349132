"""The command line as a person uses it: a real process, a store on disk."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from tests.cli.running import empty_store, run_cli


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(tmp_path, args, store=tmp_path / "demo.db")


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo")
    first = _run(path, "demo", "--store", "demo.db")
    assert first.returncode == 0, first.stderr
    assert "offline scripted model" in first.stdout
    assert "DELETE 1" in first.stdout  # the corrected budget
    assert "UPDATE 1" in first.stdout  # the promotion
    return path


def test_the_demo_run_twice_reads_its_memory_back_from_disk(demo_dir: Path) -> None:
    second = _run(demo_dir, "demo", "--store", "demo.db")
    assert second.returncode == 0, second.stderr
    assert "already holds" in second.stdout
    assert "The Aurora festival budget is 45000 euros" in second.stdout
    assert "Alice plans the festival" not in second.stdout  # nothing was formed again


def test_context_and_search_read_the_store(demo_dir: Path) -> None:
    context = _run(demo_dir, "context", "-a", "aurora-planner", "-s", "new", "-u", "alice")
    assert context.returncode == 0, context.stderr
    assert "<UserMemory>" in context.stdout
    assert "Alice's email is alice@acme.example" in context.stdout
    found = _run(demo_dir, "search", "Bob phone", "-a", "aurora-planner", "-u", "alice")
    assert "+33" not in found.stdout  # Bob's user fact is not Alice's to see
    found = _run(demo_dir, "search", "Bob phone", "-a", "aurora-planner", "-u", "bob")
    assert "+33 6 12 34 56 78" in found.stdout


def test_facts_history_and_stats(demo_dir: Path) -> None:
    listed = _run(demo_dir, "facts", "list", "-a", "aurora-planner", "--status", "all")
    assert "retired" in listed.stdout
    exported = _run(demo_dir, "export", "-a", "aurora-planner")
    facts = [json.loads(line) for line in exported.stdout.splitlines() if '"kind": "fact"' in line]
    promoted = next(f["fact"] for f in facts if f["fact"]["version"] == 2)
    history = _run(demo_dir, "facts", "history", "-a", "aurora-planner", promoted["id"])
    assert "Alice works at Acme Studio as a designer" in history.stdout
    stats = _run(demo_dir, "stats", "-a", "aurora-planner", "-u", "alice")
    assert stats.returncode == 0
    assert "user:aurora-planner:alice" in stats.stdout


def test_an_error_is_one_clear_line_not_a_traceback(demo_dir: Path) -> None:
    missing = _run(demo_dir, "facts", "show", "-a", "aurora-planner", "no-such-fact")
    assert missing.returncode == 1
    assert "Traceback" not in missing.stderr
    assert missing.stderr.strip() == "error: agent 'aurora-planner' has no fact 'no-such-fact'"
    bad = _run(demo_dir, "search", "x", "-a", "aurora-planner", "--top-k", "0")
    assert bad.returncode == 1
    assert bad.stderr.strip().startswith("error: top_k must be")


def test_process_cold_without_a_provider_says_what_to_configure(tmp_path: Path) -> None:
    asyncio.run(empty_store(tmp_path / "demo.db"))
    done = _run(tmp_path, "process-cold")
    assert done.returncode == 0
    assert "formed 0 cold session(s)" in done.stdout


def test_calibrate_prints_the_floors_and_measures_a_users_own_pairs(tmp_path: Path) -> None:
    recorded = _run(tmp_path, "calibrate")
    assert recorded.returncode == 0, recorded.stderr
    assert "keyword-hash" in recorded.stdout
    assert "search floor 0.65" in recorded.stdout
    pairs = tmp_path / "pairs.json"
    pairs.write_text(
        json.dumps(
            {
                "questions": [
                    ["Where does Ada live?", "Ada lives in Oslo"],
                    ["What does Ada drink?", "Ada drinks green tea"],
                    ["Who is Ada's boss?", "Ada reports to Lin"],
                ],
                "same_attribute": [["Ada lives in Oslo", "Ada moved from Oslo to Bergen"]],
            }
        )
    )
    mine = _run(tmp_path, "calibrate", "--pairs", str(pairs))
    assert mine.returncode == 0, mine.stderr
    assert f"measured on {pairs}" in mine.stdout.replace("\n", "")
    broken = tmp_path / "broken.json"
    broken.write_text('{"questions": []}')
    refused = _run(tmp_path, "calibrate", "--pairs", str(broken))
    assert refused.returncode != 0
    assert "same_attribute" in refused.stderr + refused.stdout
