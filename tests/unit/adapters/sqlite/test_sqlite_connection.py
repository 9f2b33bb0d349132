"""The writer's connection keeps a larger page cache than the readers' (SQLite's 2 MiB)."""

from __future__ import annotations

from pathlib import Path

from eden_memory.adapters.stores.sqlite.connection import WRITER_CACHE_KIB, connect


def test_the_writer_caches_more_pages_than_a_reader(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    writer = connect(path)
    reader = connect(path, read_only=True)
    try:
        assert writer.execute("PRAGMA cache_size").fetchone() == (-WRITER_CACHE_KIB,)
        assert reader.execute("PRAGMA cache_size").fetchone() == (-2000,)
    finally:
        writer.close()
        reader.close()
