"""``eden-memory migrate-v1`` / ``rollback-v1`` as a person runs them: a real process, a v1
database on the wire-protocol server, an embedded store on disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient

from tests.migration.v1_data import AGENT_A_ID, load


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EDEN_MEMORY_EMBEDDER": "keyword", "COLUMNS": "200"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])  # this checkout's code
    env["EDEN_MEMORY_STORE_PATH"] = str(tmp_path / "memory.db")
    env["EDEN_MEMORY_STORE"] = "embedded"
    return subprocess.run(
        [sys.executable, "-m", "eden_memory", *args, "--state-dir", str(tmp_path / "runs")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_migrate_rerun_and_rollback_from_the_command_line(
    wire_uri: str, tmp_path: Path
) -> None:
    name = f"v1_{uuid.uuid4().hex}"
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(wire_uri)
    await load(client[name])
    try:
        source = ["--source-uri", wire_uri, "--source-db", name]
        dry = _cli(tmp_path, "migrate-v1", *source, "--dry-run")
        assert dry.returncode == 0, dry.stderr
        assert "dry run" in dry.stdout
        assert "would write" in dry.stdout
        assert not (tmp_path / "runs").exists()

        first = _cli(tmp_path, "migrate-v1", *source, "--json")
        assert first.returncode == 0, first.stderr
        report = json.loads(first.stdout)
        assert report["totals"]["agent_fact"]["written"] == 4
        assert "migrate-v1 agents: " in first.stderr  # progress, off stdout's JSON
        assert AGENT_A_ID in report["agent_profiles"]
        assert (tmp_path / "runs" / report["run_id"] / "report.json").exists()

        again = _cli(tmp_path, "migrate-v1", *source, "--json")
        assert json.loads(again.stdout)["writes"] == []

        undone = _cli(tmp_path, "rollback-v1", "--run-id", report["run_id"])
        assert undone.returncode == 0, undone.stderr
        assert "4 facts" in undone.stdout
    finally:
        await client.drop_database(name)
        await client.close()


def test_an_unreachable_source_is_one_line_and_leaves_the_run_to_resume(tmp_path: Path) -> None:
    """No v1 server: one line naming what was being read, no pymongo traceback; the run it
    started is left unfinished, so the same command resumes it once the server is back."""
    uri = "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300"  # nothing listens on port 1
    done = _cli(tmp_path, "migrate-v1", "--source-uri", uri, "--source-db", "v1")
    assert done.returncode == 1
    assert done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: MongoDB unavailable during reading v1 agent ids: 127.0.0.1:1")
    assert "Traceback" not in done.stderr
    (run,) = (tmp_path / "runs").iterdir()
    assert (run / "header.json").exists()
    assert not (run / "report.json").exists()  # unfinished: the next run resumes it
