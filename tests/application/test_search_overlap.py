"""The keyword ranking starts at once: it does not wait for the query embedding it never needs."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

import pytest

from eden_memory.application.search import SearchMode
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.ranking import Hit
from eden_memory.domain.scopes import AgentMemoryConfig, FactVisibility
from eden_memory.ports.embedder import Embedder, Embeddings
from eden_memory.ports.stores import FactRanking
from eden_memory.ports.stores.vectors import Vector
from eden_memory.testing import ScriptedLLM
from tests.application.test_search import _world


class SlowEmbedder:
    """Answers query embeddings only once released, saying when it was asked and answered."""

    def __init__(self, inner: Embedder, log: list[str], fail: bool = False) -> None:
        self._inner, self._log, self._fail = inner, log, fail
        self.release = asyncio.Event()

    @property
    def space(self) -> EmbeddingSpace:
        return self._inner.space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        if role is TextRole.QUERY:
            self._log.append("embed asked")
            await self.release.wait()
            self._log.append("embed answered")
            if self._fail:
                raise ProviderError("the embedder is down")
        return await self._inner.embed(texts, role)


class RecordedRanking:
    """The store's ranking, each call logged; the keyword one releases the embedder."""

    def __init__(self, inner: FactRanking, log: list[str], embedder: SlowEmbedder) -> None:
        self._inner, self._log, self._embedder = inner, log, embedder

    async def semantic_ranking(
        self, vector: Vector, visibility: FactVisibility, limit: int, *, space: EmbeddingSpace
    ) -> list[Hit]:
        self._log.append("semantic")
        return await self._inner.semantic_ranking(vector, visibility, limit, space=space)

    async def keyword_ranking(self, text: str, visibility: FactVisibility, limit: int) -> list[Hit]:
        self._log.append(f"keyword {text}")
        self._embedder.release.set()
        return await self._inner.keyword_ranking(text, visibility, limit)

    @property
    def text_score_threshold(self) -> float:
        return self._inner.text_score_threshold


async def _searched(log: list[str], queries: list[str], fail: bool = False) -> MemoryService:
    world, _ = await _world()
    slow = SlowEmbedder(world.embedder, log, fail)
    stores = replace(world.stores, ranking=RecordedRanking(world.stores.ranking, log, slow))
    memory = MemoryService(stores, slow, ScriptedLLM([]), world.clock)
    search = memory.search_facts(memory.conversation(AgentMemoryConfig("nova"), "s1"), queries)
    # Were the keyword ranking to wait for the vector, the embedder would never be released.
    await asyncio.wait_for(search, timeout=5)
    return memory


async def test_each_keyword_ranking_is_called_before_the_query_embedding_returns() -> None:
    log: list[str] = []
    await _searched(log, ["Mars festival", "Lyon"])
    answered = log.index("embed answered")
    assert {"keyword Mars festival", "keyword Lyon"} <= set(log[:answered])
    assert log.index("semantic") > answered


async def test_a_failed_embedding_fails_the_search_and_leaves_no_ranking_running() -> None:
    log: list[str] = []
    with pytest.raises(ProviderError):
        await _searched(log, ["Mars festival"], fail=True)
    await asyncio.sleep(0)
    assert "semantic" not in log
    running = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert not [t for t in running if "keyword" in repr(t.get_coro())]


async def test_a_keyword_search_still_finds_without_any_query_embedding() -> None:
    world, conv = await _world()
    found = await world.memory.search_facts(
        conv, ["festival Lyon"], mode=SearchMode.KEYWORD, debug=True
    )
    assert found.results[0].fact.content == "The Mars festival takes place in Lyon"
    assert found.debug is not None
    assert "embed_queries" not in found.debug.seconds
    assert "retrieve_and_fuse" in found.debug.seconds
