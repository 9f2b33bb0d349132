"""Text to vectors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole

__all__ = ["Embedder", "EmbeddingSpace", "Embeddings", "TextRole"]


@dataclass(frozen=True)
class Embeddings:
    """Unit-length vectors, one per input text, in input order."""

    vectors: list[list[float]]
    input_tokens: int = 0


class Embedder(Protocol):
    """One embedding model. An adapter must return one unit-length vector per text, in input
    order, all of ``space``'s dimension; split a batch to fit the provider's limits; and
    raise ``ProviderError`` subclasses for provider failures, never return partial output.

    Every call says what its texts are (``TextRole``): a model trained asymmetrically embeds
    a search query and a stored text differently, and a symmetric one ignores the role. A
    fact is always a ``PASSAGE``, when it is stored and when it is compared with other facts.
    """

    @property
    def space(self) -> EmbeddingSpace:
        """The model and dimension every vector of this embedder belongs to."""
        ...

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        """Embed a batch of texts of one role in as few provider calls as its limits allow."""
        ...
