"""Which fusion, which weights: measured on LoCoMo observations, chosen without peeking.

Each question's semantic and keyword candidate lists (100 deep, with scores) are taken once
from the embedded store; every fusion is then computed from those lists, so the comparison
costs seconds. The weight of a fusion is *chosen* on one half of the conversations and
*scored* on the other half, and the other way round (two folds): the figures printed for a
tuned fusion never come from questions it was tuned on.

    python -m benchmarks.fusion [--data PATH] [--embedder minilm]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from benchmarks.locomo import AGENT, DEFAULT_DATA, eden_index
from benchmarks.locomo_data import KS, Question, Sample, load, recall_at
from eden_memory.adapters.embedders.local import LocalEmbedder
from eden_memory.application.search.calibration import Calibrations
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import FactId, MessageId
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.ranking import Fusion, FusionRule, FusionWeights, Hit, fuse, single
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.embedder import Embedder

DEPTH = 100


@dataclass(frozen=True)
class Lists:
    """One question's candidates, with what each fact covers."""

    question: Question
    semantic: list[Hit]
    keyword: list[Hit]
    covers: dict[FactId, tuple[MessageId, ...]]
    sessions: dict[str, str] = field(default_factory=dict)  # fact id: source session
    said: dict[str, datetime] = field(default_factory=dict)  # fact id: formed_at


Ranker = Callable[[Lists], list[str]]


async def collect(
    samples: Sequence[Sample],
    folder: Path,
    corpus: str,
    embedder: Embedder | None = None,
    depth: int = DEPTH,
) -> tuple[list[Lists], float, float]:
    """Each question's candidates, ``depth`` deep per list (MiniLM unless ``embedder``)."""
    embedder = LocalEmbedder() if embedder is None else embedder
    memory, _, _ = await eden_index(folder / f"{corpus}.db", embedder, samples, corpus)
    stores = memory.admin.stores
    floor = (await Calibrations(embedder).current()).search_floor
    out: list[Lists] = []
    settings = MemorySettings()
    for sample in samples:
        profile = SessionProfile.of(AgentMemoryConfig(AGENT), "fusion", [sample.sample_id])
        scopes = profile.scopes(settings.enabled)
        for q in sample.questions:
            [vector] = (await embedder.embed([q.text], TextRole.QUERY)).vectors
            sem = await stores.ranking.semantic_ranking(
                vector, scopes.visibility, depth, space=embedder.space
            )
            kw = await stores.ranking.keyword_ranking(q.text, scopes.visibility, depth)
            facts = await stores.facts.get_facts([r.id for r in [*sem, *kw]])
            covers = {f.id: f.source_message_ids for f in facts}
            sessions = {str(f.id): str(f.source_session_id) for f in facts if f.source_session_id}
            said = {str(f.id): f.formed_at for f in facts}
            sem_hits = [Hit(r.id, r.score) for r in sem]
            out.append(Lists(q, sem_hits, [Hit(r.id, r.score) for r in kw], covers, sessions, said))
    text_floor = stores.ranking.text_score_threshold
    await memory.aclose()
    await stores.close()
    return out, floor, text_floor


def recall(lists: Sequence[Lists], ranker: Ranker) -> dict[int, float]:
    rows = []
    for item in lists:
        ids = ranker(item)
        docs = [item.covers[FactId(i)] for i in ids if i in item.covers]
        rows.append({k: recall_at(item.question.evidence, docs, k) for k in KS})
    return {k: 100 * statistics.fmean(r[k] for r in rows) for k in KS}


def rule_ranker(rule: FusionRule, mode: str = "hybrid") -> Ranker:
    def rank(item: Lists) -> list[str]:
        if mode == "semantic":
            return [h.id for h in single(item.semantic, rule.semantic_threshold, semantic=True)]
        if mode == "keyword":
            return [h.id for h in single(item.keyword, rule.text_threshold, semantic=False)]
        return [h.id for h in fuse(item.semantic, item.keyword, rule)][: max(KS)]

    return rank


def rule(
    fusion: Fusion, w: float, sem_floor: float, text_floor: float, rrf_floor: float = 0.0
) -> FusionRule:
    return FusionRule(fusion, FusionWeights(w, 1.0 - w), 60, sem_floor, text_floor, rrf_floor)


@dataclass(frozen=True)
class Weighted:
    """A fusion whose semantic weight is left open (the keyword list gets the rest)."""

    fusion: Fusion
    semantic_floor: float
    text_floor: float

    def __call__(self, w: float) -> FusionRule:
        return rule(self.fusion, w, self.semantic_floor, self.text_floor)


def cross_validated(
    lists: Sequence[Lists], make: Callable[[float], FusionRule], grid: Sequence[float]
) -> tuple[dict[int, float], list[float]]:
    """Recall on each half with the weight that did best (mean R@5..R@50) on the other half."""
    samples = sorted({i.question.sample for i in lists})
    halves = [set(samples[::2]), set(samples[1::2])]
    scored: list[tuple[int, dict[int, float]]] = []
    chosen = []
    for tune, test in ((halves[0], halves[1]), (halves[1], halves[0])):
        tune_lists = [i for i in lists if i.question.sample in tune]
        test_lists = [i for i in lists if i.question.sample in test]
        best = max(
            grid, key=lambda w: statistics.fmean(recall(tune_lists, rule_ranker(make(w))).values())
        )
        chosen.append(best)
        scored.append((len(test_lists), recall(test_lists, rule_ranker(make(best)))))
    total = sum(n for n, _ in scored)
    return {k: sum(n * r[k] for n, r in scored) / total for k in KS}, chosen


def row(name: str, figures: dict[int, float], note: str = "") -> str:
    return f"{name:<44}" + "".join(f"{figures[k]:>8.1f}" for k in KS) + f"  {note}"


async def main_async(args: argparse.Namespace) -> None:
    samples = load(args.data)
    with tempfile.TemporaryDirectory(prefix="fusion-") as tmp:
        lists, sem_floor, text_floor = await collect(samples, Path(tmp), args.corpus)
    print(
        f"{len(lists)} questions; calibrated semantic floor {sem_floor}, keyword floor {text_floor}"
    )
    print(f"{'configuration':<44}" + "".join(f"{'R@' + str(k):>8}" for k in KS))
    grid = [round(0.05 * i, 2) for i in range(21)]
    for floors, (s, t) in (("off", (-1.0, float("-inf"))), ("on", (sem_floor, text_floor))):
        print(f"-- floors {floors}")
        print(
            row(
                "semantic only", recall(lists, rule_ranker(rule(Fusion.SCORE, 1, s, t), "semantic"))
            )
        )
        print(
            row("keyword only", recall(lists, rule_ranker(rule(Fusion.SCORE, 1, s, t), "keyword")))
        )
        rrf_floor = 0.015 if floors == "on" else 0.0
        print(
            row(
                "rrf k=60 1:1 (the seeds)",
                recall(lists, rule_ranker(rule(Fusion.RRF, 0.5, s, t, rrf_floor))),
            )
        )
        for w in (0.4, 0.45, 0.5, 0.55, 0.6, 0.7):
            print(
                row(
                    f"score {w:g}/{1 - w:.2g}",
                    recall(lists, rule_ranker(rule(Fusion.SCORE, w, s, t))),
                )
            )
            print(
                row(f"rrf {w:g}/{1 - w:.2g}", recall(lists, rule_ranker(rule(Fusion.RRF, w, s, t))))
            )
        for fusion in (Fusion.SCORE, Fusion.RRF):
            figures, chosen = cross_validated(lists, Weighted(fusion, s, t), grid)
            name = f"{fusion.value}, weight chosen on the other half"
            print(row(name, figures, f"chosen {chosen}"))


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--corpus", choices=("observations", "turns"), default="observations")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
