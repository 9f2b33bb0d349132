"""``benchmarks.search_stages`` runs end to end on a small store and prints every stage."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from benchmarks import search_stages


def test_the_stages_of_each_mode_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(search_stages.run(300, "tenants", 5, tmp_path))
    out = capsys.readouterr().out
    assert "300 facts, 1,000 users" in out
    lines = {line.split()[0]: line for line in out.splitlines() if "search p50" in line}
    assert set(lines) == {"hybrid", "semantic", "keyword"}
    assert "semantic_ranking" in lines["hybrid"]
    assert "keyword_ranking" in lines["hybrid"]
    assert "keyword_ranking" not in lines["semantic"]
    assert "semantic_ranking" not in lines["keyword"]
