"""A cross-encoder from a local folder (sentence-transformers), as a search's reranker.

A cross-encoder reads the question and a fact as one input, so it sees what a vector of
each cannot: which person, which time. Nothing is downloaded: ``search.rerank_model`` names
a folder holding the model (e.g. one saved with ``CrossEncoder(...).save(path)`` on a
machine with network access). Needs the ``local`` extra, and torch.
"""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eden_memory.adapters.offline_models import offline_and_quiet
from eden_memory.domain.errors import ConfigurationError, MissingExtraError, ProviderError


def load_cross_encoder(folder: str | os.PathLike[str]) -> Any:
    """The model in ``folder``, on the CPU, offline."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ConfigurationError(
            f"search.rerank_model must be the folder of a cross-encoder, got {str(path)!r:.200}"
        )
    offline_and_quiet()
    try:
        from sentence_transformers import CrossEncoder
        from transformers.utils import logging as transformers_logging
    except ImportError as error:
        raise MissingExtraError(
            "The cross-encoder reranker", "local", error.name or "sentence-transformers"
        ) from error
    # HF_HUB_DISABLE_PROGRESS_BARS is read when transformers is first imported only.
    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    try:
        return CrossEncoder(str(path), device="cpu", local_files_only=True)
    except (OSError, ValueError) as error:
        raise ConfigurationError(
            f"no cross-encoder could be loaded from {path}: {error}"
        ) from error


class CrossEncoderReranker:
    """Scores every (query, passage) pair; a passage keeps its best query's score."""

    def __init__(
        self, folder: str | os.PathLike[str], model: Any | None = None, batch_size: int = 32
    ) -> None:
        self._model = model if model is not None else load_cross_encoder(folder)
        self._name = Path(folder).name or str(folder)
        self._batch_size = batch_size

    @property
    def name(self) -> str:
        return self._name

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        if not passages or not queries:
            return []
        pairs = [(q, p) for q in queries for p in passages]
        try:
            # Inference is CPU-bound: keep it off the event loop.
            raw: Any = await asyncio.to_thread(
                self._model.predict,
                pairs,
                batch_size=self._batch_size,
                show_progress_bar=False,
                convert_to_numpy=True,
            )
            flat = [float(x) for x in raw.reshape(-1).tolist()]
        except Exception as error:  # the model's own errors, whatever the backend
            raise ProviderError(f"the cross-encoder failed: {error}") from error
        if len(flat) != len(pairs) or not all(math.isfinite(x) for x in flat):
            raise ProviderError(
                f"the cross-encoder returned {len(flat)} scores for {len(pairs)} pairs, "
                "or a score that is not a finite number"
            )
        n = len(passages)
        return [max(flat[q * n + i] for q in range(len(queries))) for i in range(n)]
