"""Which store a command reads: a read never creates one, the demo writes the store every
other command reads, and an agent that holds nothing is named as such."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli.running import empty_store, run_cli

DEFAULT = Path(".eden-memory/memory.db")
AGENT = "aurora-planner"


def _run(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a person runs it: no store configured but what ``args`` say."""
    return run_cli(cwd, args, stdin=stdin)


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where `eden-memory demo` ran with no store named."""
    path = tmp_path_factory.mktemp("demo-default")
    done = _run(path, "demo")
    assert done.returncode == 0, done.stderr
    assert "context -a aurora-planner" in done.stdout.replace("\n", "")  # how to read it
    return path


READS = [
    ("search", "budget", "-a", AGENT, "-u", "alice"),
    ("context", "-a", AGENT, "-s", "s1", "-u", "alice"),
    ("users", "-a", AGENT),
    ("agents",),
    ("stats", "-a", AGENT),
    ("facts", "list", "-a", AGENT),
    ("reflections", "list", "-a", AGENT),
    ("export", "-a", AGENT),
    ("process-cold",),
    ("erase-user", "-a", AGENT, "-u", "alice", "--yes"),
]


@pytest.mark.parametrize(
    ("command", "store"),
    [
        *((c, "typo.db") for c in READS),
        (READS[0], "no-such-folder/memory.db"),
        (READS[0], None),
        (READS[1], None),
    ],
    ids=lambda v: " ".join(v[:2]) if isinstance(v, tuple) else str(v),
)
def test_a_command_that_reads_refuses_a_store_that_does_not_exist(
    tmp_path: Path, command: tuple[str, ...], store: str | None
) -> None:
    named = () if store is None else ("--store", store)
    done = _run(tmp_path, *named, *command)
    path = store or str(DEFAULT)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: there is no memory store at {path} ")
    assert len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # neither the file nor its folder was made


def test_the_demo_writes_the_store_every_other_command_reads(demo_dir: Path) -> None:
    assert (demo_dir / DEFAULT).exists()
    found = _run(demo_dir, "search", "budget", "-a", AGENT, "-u", "alice")
    assert found.returncode == 0, found.stderr
    assert "The Aurora festival budget is 45000 euros" in found.stdout
    context = _run(demo_dir, "context", "-a", AGENT, "-s", "new", "-u", "alice")
    assert "Alice's email is alice@acme.example" in context.stdout


def test_the_demo_honours_the_global_store_option(tmp_path: Path) -> None:
    done = _run(tmp_path, "--store", "mine.db", "demo")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "mine.db").exists()
    assert not (tmp_path / DEFAULT).exists()
    assert "--store mine.db context" in done.stdout.replace("\n", "")
    both = _run(tmp_path, "--store", "mine.db", "demo", "--store", "other.db")
    assert both.returncode == 2
    assert "two stores" in both.stderr


def test_an_agent_that_holds_nothing_says_so_and_names_the_agents_here(demo_dir: Path) -> None:
    for command in (
        ("search", "budget", "-a", "aurora", "-u", "alice"),
        ("context", "-a", "aurora", "-s", "s1"),
        ("facts", "list", "-a", "aurora"),
        ("users", "-a", "aurora"),
    ):
        done = _run(demo_dir, *command)
        assert done.returncode == 0, done.stderr
        assert f"(agent 'aurora' holds no memory in {DEFAULT}; agents here: {AGENT})" in done.stderr
    known = _run(demo_dir, "facts", "list", "-a", AGENT)
    assert "holds no memory" not in known.stderr


def test_agents_lists_the_agents_that_hold_memory(demo_dir: Path, tmp_path: Path) -> None:
    listed = _run(demo_dir, "agents")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [AGENT]
    asyncio.run(empty_store(tmp_path / "empty.db"))
    empty = _run(tmp_path, "--store", "empty.db", "agents")
    assert (empty.returncode, empty.stdout) == (0, "")
    assert "(no agent holds memory in empty.db)" in empty.stderr


def test_fresh_refuses_a_store_where_other_agents_hold_memory(
    demo_dir: Path, tmp_path: Path
) -> None:
    shutil.copy(demo_dir / DEFAULT, tmp_path / "shared.db")
    facts = tmp_path / "facts.jsonl"
    facts.write_text(
        json.dumps(
            {
                "agent_id": "billing-bot",
                "scope": "agent",
                "content": "Invoices go out on the 1st.",
                "formed_at": "2025-01-01T00:00:00Z",
            }
        )
        + "\n"
    )
    added = _run(tmp_path, "--store", "shared.db", "add-facts", str(facts))
    assert added.returncode == 0, added.stderr
    refused = _run(tmp_path, "--store", "shared.db", "demo", "--fresh")
    assert refused.returncode == 1
    assert "billing-bot" in refused.stderr
    assert _run(tmp_path, "--store", "shared.db", "agents").stdout.split() == [
        AGENT,
        "billing-bot",
    ]
    again = _run(tmp_path, "--store", "demo-only.db", "demo")
    assert again.returncode == 0
    fresh = _run(tmp_path, "--store", "demo-only.db", "demo", "--fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert "already holds" not in fresh.stdout  # formed again from nothing


def test_erase_user_asks_first_and_reports_what_it_erased(demo_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(demo_dir / ".eden-memory", tmp_path / ".eden-memory")
    unasked = _run(tmp_path, "erase-user", "-a", AGENT, "-u", "bob", stdin="")
    assert unasked.returncode == 2
    assert "add --yes" in unasked.stderr
    found = _run(tmp_path, "search", "Bob phone", "-a", AGENT, "-u", "bob")
    assert "+33 6 12 34 56 78" in found.stdout  # nothing was erased without --yes
    erased = _run(tmp_path, "erase-user", "-a", AGENT, "-u", "bob", "--yes")
    assert erased.returncode == 0, erased.stderr
    assert "records of the user's own memory removed" in erased.stdout
    found = _run(tmp_path, "search", "Bob phone", "-a", AGENT, "-u", "bob")
    assert "+33" not in found.stdout
    assert "bob" not in _run(tmp_path, "users", "-a", AGENT).stdout.split()
    nobody = _run(tmp_path, "erase-user", "-a", AGENT, "-u", "bob", "--yes")
    assert nobody.returncode == 0
    assert "nothing erased" in nobody.stderr
