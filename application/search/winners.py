"""The results' hits: each query's best live candidates, merged, and a reranker's order.

A candidate left out (expired, or changed since it was ranked) gives its place to the next
of its list. A reranker that fails or has no opinion leaves the fused order as it was
(``application/search/reranking.py``); which candidates it judges is ``domain/search_rules.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from eden_memory.application.search.hits import visible_facts
from eden_memory.application.search.raises import Raised
from eden_memory.application.search.reranking import Reranked, rerank
from eden_memory.application.search.stages import Asked
from eden_memory.domain.ids import FactId
from eden_memory.domain.models import Fact
from eden_memory.domain.ranking import FusedHit, merge_queries
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.search_rules import judged_pool, live_tops, unread
from eden_memory.domain.settings import SearchSettings
from eden_memory.ports.reranker import Reranker
from eden_memory.ports.stores import FactReads
from eden_memory.ports.telemetry import Telemetry

Facts = dict[FactId, Fact]


@dataclass(frozen=True)
class Winners:
    facts: FactReads
    settings: SearchSettings
    reranker: Reranker | None
    telemetry: Telemetry

    async def chosen(
        self, asked: Asked, raised: list[Raised], read: Facts, now: datetime
    ) -> tuple[Reranked, Facts]:
        """At most ``k`` hits for each of the caller's queries, from each query's best ``k``
        live candidates merged; when reranking is on, in the reranker's order over these and
        the next candidates down to ``rerank_depth``. Returns the facts read, too."""
        lists = [r.hits for r in raised]
        kept, read = await self._live(asked, lists, read, asked.k, now)
        if asked.given < len(lists):
            kept = kept[: asked.k * asked.given]
        s, n = self.settings, len(kept)
        if self.reranker is None or s.rerank is RerankBy.OFF or n == 0:
            return Reranked(kept), read
        depth = max(s.rerank_depth, n)
        deeper, read = await self._live(asked, lists, read, depth, now)
        judged = judged_pool(kept, deeper, depth)
        done = await rerank(self.reranker, asked.own, judged, read, len(judged), self.telemetry)
        return replace(done, hits=done.hits[:n]), read

    async def _live(
        self, asked: Asked, lists: list[list[FusedHit]], read: Facts, k: int, now: datetime
    ) -> tuple[list[FusedHit], Facts]:
        """Each query's best ``k`` candidates that are live, merged, and the facts read."""
        gone: set[str] = set()
        while True:
            tops = live_tops(lists, gone, k)
            wanted = [FactId(i) for i in unread(tops, read)]
            if not wanted:
                return merge_queries(tops), read
            found = await visible_facts(self.facts, wanted, asked.scopes.visibility, now)
            read = read | found
            gone |= {i for i in wanted if i not in found}
