"""How relevant each result is to the caller's queries: its evidence read, then judged.

An added query's closeness is not evidence that a fact is relevant to what was asked: only
the caller's queries count. A hit none of their semantic lists scored gets its cosine with
their closest query; where a hit stands out is read against the candidates of the query it
is closest to. The judgement is ``domain/relevance.py``'s; the evidence gathered here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.application.search.calibration import Calibrations
from eden_memory.application.search.raises import Raised
from eden_memory.application.search.shapes import QueryDebug
from eden_memory.application.search.stages import Asked
from eden_memory.domain.ids import FactId
from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.relevance import names_asked, names_held
from eden_memory.domain.search_rules import backdrops, hit_evidence, relevances
from eden_memory.domain.vectors import cosine
from eden_memory.ports.stores import FactRanking, FactReads


@dataclass(frozen=True)
class Relevance:
    facts: FactReads
    ranking: FactRanking
    calibrations: Calibrations

    async def of(
        self,
        asked: Asked,
        kept: Sequence[FusedHit],
        raised: Sequence[Raised],
        retrieved: Sequence[QueryDebug],
        vectors: Sequence[list[float] | None],
    ) -> list[float | None]:
        """Each of ``kept``'s relevance to the caller's queries."""
        own = asked.given
        named = await self._names_held(asked)
        scale = (await self.calibrations.current()).scale
        wanted = {h.id for h in kept}  # not every candidate: this is on every search's path
        semantic, coverage = hit_evidence(wanted, [r.hits for r in raised[:own]])
        missing = [FactId(h.id) for h in kept if semantic.get(h.id) is None]
        semantic |= await self._cosines(missing, vectors[:own])
        drops = backdrops([d.semantic for d in retrieved[:own]], wanted)
        return relevances(scale, kept, semantic, coverage, drops, named)

    async def _names_held(self, asked: Asked) -> float:
        """The share of the names the caller's queries ask about that some visible fact holds."""
        names = names_asked(asked.own)
        if not names:
            return 1.0
        visibility = asked.scopes.visibility
        found = await asyncio.gather(
            *(self.ranking.keyword_ranking(name, visibility, 1) for name in names)
        )
        return names_held(len(names), sum(1 for hits in found if hits))

    async def _cosines(
        self, ids: Sequence[FactId], vectors: Sequence[list[float] | None]
    ) -> dict[str, float]:
        """The cosines of hits no semantic ranking scored (keyword-only), with the closest
        query, so that every hit of a search with a query vector has a semantic relevance."""
        queries = [v for v in vectors if v is not None]
        if not ids or not queries:
            return {}
        stored = await self.facts.get_vectors(list(ids))
        return {i: max(cosine(q, v) for q in queries) for i, v in stored.items()}
