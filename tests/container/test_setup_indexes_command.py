"""``eden-memory setup-indexes --dry-run`` prints every index definition, with no server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.unit.adapters.mongo import wire_server


def setup_indexes(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m eden_memory setup-indexes *args`` with only the ``EDEN_MEMORY_*`` given."""
    variables = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    variables.update({f"EDEN_MEMORY_{k.upper()}": v for k, v in env.items()})
    return subprocess.run(
        [sys.executable, "-m", "eden_memory", "setup-indexes", *args],
        capture_output=True,
        text=True,
        env=variables,
        timeout=120,
        check=False,
    )


def dry_run(**env: str) -> list[dict[str, Any]]:
    done = setup_indexes("--dry-run", **env)
    assert done.returncode == 0, done.stderr
    definitions: list[dict[str, Any]] = json.loads(done.stdout)
    return definitions


def vector_dimensions(definitions: list[dict[str, Any]]) -> list[int]:
    return [int(d) for d in re.findall(r'"numDimensions": (\d+)', json.dumps(definitions))]


@pytest.mark.parametrize(
    ("env", "dimension"),
    [({"embedder": "openai"}, 1536), ({"embedder": "gemini", "embedding_dimensions": "768"}, 768)],
)
def test_dry_run_prints_the_definitions_for_the_embedder(
    env: dict[str, str], dimension: int
) -> None:
    definitions = dry_run(**env)
    assert {d["collection"] for d in definitions} >= {"memory2_facts", "memory2_sessions"}
    assert vector_dimensions(definitions) == [dimension]


def test_dry_run_follows_the_collection_prefix() -> None:
    definitions = dry_run(embedder="fake", mongodb_collection_prefix="tenant_a_")
    assert all(d["collection"].startswith("tenant_a_") for d in definitions)


def test_without_a_uri_it_says_which_variable_to_set() -> None:
    done = setup_indexes()
    assert done.returncode == 1
    assert "EDEN_MEMORY_MONGODB_URI" in done.stderr


def test_it_creates_the_indexes_on_a_server_and_keeps_them_next_time() -> None:
    if not wire_server.available():
        pytest.skip(f"{wire_server.SERVER} is not installed (dev dependency)")
    with wire_server.wire_server() as uri:
        first = setup_indexes("--timeout-seconds", "5", mongodb_uri=uri, embedder="fake")
        again = setup_indexes("--timeout-seconds", "5", mongodb_uri=uri, embedder="fake")
    assert first.returncode == 0, first.stderr
    assert "created  memory2_facts.fact_active_hash" in first.stdout
    assert "kept     memory2_facts.fact_active_hash" in again.stdout
