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
        """Refuse vectors of ``other`` (this being the store's space), saying how to move on.

        Two models of the same dimension are refused too: their vectors would compare
        without an error, and mean nothing to each other.
        """
        if other != self:
            raise EmbeddingSpaceError(
                f"this store's facts are embedded with {self.model} ({self.dimension} "
                f"dimensions), not {other.model} ({other.dimension} dimensions), and vectors of "
                f"two models never mix: configure the {self.model} embedder again, or move the "
                f"store to {other.model} by running `eden-memory reembed --agent AGENT_ID` with "
                f"{other.model} configured (`MemoryService.reembed` in code)"
            )

    def check_vector(self, vector_length: int) -> None:
        if vector_length != self.dimension:
            raise EmbeddingSpaceError(
                f"a {self.model} vector must have {self.dimension} dimensions, got {vector_length}"
            )
