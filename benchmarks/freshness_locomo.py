"""LoCoMo recall over observations with ``newer_first`` off and on, and with decays by age.

LoCoMo asks about events over months ("When did Caroline go to the support group?"), where
the older of two near-duplicate facts is as often the answer as the newer: this is what the
freshness defaults may cost. Same data and protocol as ``benchmarks.locomo`` (observations
of the dev split, one user per conversation, top_k 50, default floors); nothing is tuned.
"""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.locomo import AGENT, DEFAULT_DATA, eden_index
from benchmarks.locomo_data import KS, load, recall_at
from eden_memory.adapters.clocks import SystemClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.embedder import Embedder, Embeddings


def configs(floor: float) -> list[tuple[str, SearchSettings]]:
    """The rows; ``floor``: the embedder's calibrated dedup floor."""
    rows = [
        ("newer_first off (main)", SearchSettings(newer_first=False)),
        ("default (one key is one thing)", SearchSettings()),
        (f"+ near-duplicates from {floor:.3f}", SearchSettings(same_thing_similarity=floor)),
    ]
    for days in (30, 180, 365):
        rows.append((f"decay alone, half-life {days} d", SearchSettings(age_half_life_days=days)))
    return rows


class QueryCache:
    """The embedder, with each question embedded once for all the configurations."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._queries: dict[str, list[float]] = {}

    @property
    def space(self) -> EmbeddingSpace:
        return self._inner.space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        if role is not TextRole.QUERY:
            return await self._inner.embed(texts, role)
        missing = [t for t in dict.fromkeys(texts) if t not in self._queries]
        if missing:
            vectors = (await self._inner.embed(missing, role)).vectors
            self._queries |= dict(zip(missing, vectors, strict=True))
        return Embeddings([self._queries[t] for t in texts])


async def locomo_recall(embedder: Embedder, data: str, floor: float) -> None:
    samples = load(DEFAULT_DATA if data == "default" else Path(data))
    cached = QueryCache(embedder)
    questions = [q for s in samples for q in s.questions]
    print(f"\n  LoCoMo observations, {len(questions)} questions, recall@k (top_k 50):\n")
    print("  | configuration | " + " | ".join(f"R@{k}" for k in KS) + " | searches with a mark |")
    print("  |---|" + "---|" * (len(KS) + 1))
    with tempfile.TemporaryDirectory() as tmp:
        memory, _, _ = await eden_index(Path(tmp) / "obs.db", cached, samples, "observations")
        for name, search in configs(floor):
            settings = MemorySettings(search=search)
            service = MemoryService(
                memory.admin.stores, cached, ScriptedLLM([]), SystemClock(), settings
            )
            rows, marked = [], 0
            for q in questions:
                conv = service.conversation(AgentMemoryConfig(AGENT), "fresh", [q.sample])
                found = await service.search_facts(conv, [q.text], 50)
                docs = [r.fact.source_message_ids for r in found.results]
                rows.append({k: recall_at(q.evidence, docs, k) for k in KS})
                marked += any(r.newer is not None for r in found.results)
            cells = " | ".join(f"{100 * statistics.fmean(r[k] for r in rows):.1f}" for k in KS)
            print(f"  | {name} | {cells} | {100 * marked / len(questions):.0f}% |")
        await memory.aclose()
        await memory.admin.stores.close()
