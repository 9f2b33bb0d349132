"""Query expansion: the memory's LLM adds queries to a search that was given fewer than it
may take (``search.expand``).

The added queries search like the caller's own (semantic and keyword, raised, merged); the
results stay as many as the caller's queries would give, and a reranker judges against the
caller's queries only. When the model fails, the search runs with the queries it was given
and says so (debug output, telemetry, log): an expansion is a help, never a condition.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.application.calls import ModelRouter
from eden_memory.application.prompts.expansion import expansion_prompt
from eden_memory.application.schemas import MoreQueries
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.error_summary import summary
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.expansion import added_queries
from eden_memory.domain.model_choice import ModelRole, model_for
from eden_memory.ports.telemetry import Attribute, Telemetry

# The logger keeps the name hosts filter by, from before the module moved into a folder.
log = logging.getLogger("eden_memory.application.expansion")


@dataclass(frozen=True)
class Expanded:
    added: list[str]
    note: str = ""  # what happened, for a search's debug output


@dataclass(frozen=True)
class QueryExpander:
    models: ModelRouter
    model: str | None = None
    max_chars: int = 1000
    telemetry: Telemetry = NO_TELEMETRY

    @property
    def name(self) -> str:
        return self.model or model_for(ModelRole.FAST, self.models.settings)

    async def expand(self, queries: Sequence[str], wanted: int) -> Expanded:
        """Up to ``wanted`` new queries for ``queries`` (none when the model fails)."""
        if wanted < 1:
            return Expanded([])
        asked: dict[str, Attribute] = {"eden_memory.expand.model": self.name}
        asked["eden_memory.expand.wanted"] = wanted
        with self.telemetry.operation("eden_memory.search.expand", asked) as span:
            system, prompt = expansion_prompt(queries, wanted)
            try:
                answer = await self.models.ask(
                    ModelRole.FAST, "expand", system, prompt, MoreQueries, model=self.model
                )
            except ProviderError as error:
                failed = summary(error)
                log.warning("query expansion failed, the given queries are searched: %s", failed)
                span.set("eden_memory.expand.failed", type(error).__name__)
                return Expanded([], f"{self.name} failed: {error}")
            added = added_queries(queries, answer.queries, wanted, self.max_chars)
            span.set("eden_memory.expand.added", len(added))
        return Expanded(added, f"{self.name}: {len(added)} added")
