"""What one search was asked, and the helper that times each of its stages.

The stages' spans (each retriever, the fusion, the rerank, the expansion) are opened by the
stages themselves, directly under the search's own span, where hosts' dashboards read them;
the helper adds every stage's wall time to the search's debug ``seconds`` under its name.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

from eden_memory.application.calls import timed
from eden_memory.application.search.shapes import SearchMode
from eden_memory.domain.scopes import ActiveScopes

T = TypeVar("T")


@dataclass(frozen=True)
class Asked:
    """One search: the caller's queries (``given`` of them) and those added to them."""

    scopes: ActiveScopes
    queries: list[str]
    given: int
    k: int
    mode: SearchMode
    thresholds: bool

    @property
    def own(self) -> list[str]:
        """The caller's queries: they say how many results there are, how relevant each is,
        and what a reranker judges against (added queries only widen the candidates)."""
        return self.queries[: self.given]


@dataclass
class Stages:
    """The wall time of each stage of one search, by name; a name given to several stages
    adds up (``read_facts``: the raises, the winners and their relevance)."""

    seconds: dict[str, float] = field(default_factory=dict)

    async def __call__(self, name: str, work: Awaitable[T]) -> T:
        async with timed(self.seconds, name):
            return await work
