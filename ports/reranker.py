"""A second judge of a search's best candidates (``domain/reranking.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Reranker(Protocol):
    """Scores facts against a search's queries, reading each pair together.

    An adapter must return one finite score per passage, in passage order, larger meaning
    more useful to the queries (any scale: only the order is used). A search may carry up to
    three queries about one need: a fact is as useful as it is to the best of them. Failures raise
    ``ProviderError`` subclasses, or ``InvalidLLMOutputError`` for an answer that does not
    fit the passages shown; the search then keeps its fused order.
    """

    @property
    def name(self) -> str:
        """The model that judges, for a search's debug output and telemetry."""
        ...

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        """How useful each passage is to the queries, one score each, in order."""
        ...
