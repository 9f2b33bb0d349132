"""An embedding space is a model and a dimension; vectors of two spaces never mix."""

from __future__ import annotations

from dataclasses import dataclass

from eden_memory.domain.errors import EmbeddingSpaceError


@dataclass(frozen=True)
class EmbeddingSpace:
    model: str
    dimension: int

    def __post_init__(self) -> None:
        if not self.model or self.dimension <= 0:
            raise ValueError("an embedding space needs a model name and a positive dimension")

    def require_same(self, other: EmbeddingSpace) -> None:
        """Refuse vectors from ``other`` with a message that says how to move on."""
        if other != self:
            raise EmbeddingSpaceError(
                f"this store holds {self.model} vectors ({self.dimension} dimensions) but got "
                f"{other.model} ({other.dimension}); configure the same embedder, or move the "
                f"store to the new one with `eden-memory reembed`"
            )

    def check_vector(self, vector_length: int) -> None:
        if vector_length != self.dimension:
            raise EmbeddingSpaceError(
                f"a {self.model} vector must have {self.dimension} dimensions, got {vector_length}"
            )
