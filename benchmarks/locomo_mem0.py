"""mem0 (PyPI ``mem0ai``) as the baseline: local Qdrant, the same MiniLM model, no LLM.

Imported only when the comparison runs; install with
``pip install -r benchmarks/requirements-locomo.txt``.
"""

from __future__ import annotations

import importlib
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.locomo_data import Sample


def available() -> str | None:
    """None when mem0 can be imported, else why not."""
    try:
        importlib.import_module("mem0")
    except Exception as error:  # any import failure means "not available"
        return f"{type(error).__name__}: {error}"
    return None


class Mem0Index:
    """One mem0 ``Memory`` over all conversations, one mem0 user per conversation."""

    def __init__(self, folder: Path, model_path: str) -> None:
        os.environ.setdefault("MEM0_DIR", str(folder / "home"))
        logging.getLogger("mem0").setLevel(logging.ERROR)
        mem0: Any = importlib.import_module("mem0")
        config = {
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "path": str(folder / "qdrant"),
                    "collection_name": "locomo",
                    "embedding_model_dims": 384,
                    "on_disk": True,
                },
            },
            "embedder": {"provider": "huggingface", "config": {"model": model_path}},
            "history_db_path": str(folder / "history.db"),
        }
        self.memory: Any = mem0.Memory.from_config(config)

    def ingest(self, samples: Sequence[Sample]) -> float:
        """Add every observation with ``infer=False``; returns the wall time in seconds."""
        start = time.perf_counter()
        for sample in samples:
            for doc in sample.observations:
                self.memory.add(
                    doc.text,
                    user_id=sample.sample_id,
                    infer=False,
                    metadata={"evidence": list(doc.evidence)},
                )
        return time.perf_counter() - start

    def search(self, sample_id: str, query: str, limit: int) -> list[tuple[str, ...]]:
        found = self.memory.search(query, top_k=limit, filters={"user_id": sample_id})
        return [tuple(r.get("metadata", {}).get("evidence", ())) for r in found["results"]]

    def embed_query(self, query: str) -> object:
        return self.memory.embedding_model.embed(query, "search")
