"""Session-mates and named dates: how much to raise them, chosen without peeking.

On top of the default fusion (scaled scores 0.5/0.5, floors on), each question's candidates
are raised two ways (``application/search/raises.py``): by a share of the best score of another
candidate from the same session (``session_weight``, ``domain/session_context.py``), and,
when the question names a time, by a factor for the facts said then (``time_boost`` for a
month, year or relative time; ``day_boost`` for a calendar date, ``domain/temporal.py``).
Like ``benchmarks.fusion``, the candidates are taken once (100 deep, with scores) and every
setting is scored from them; a setting is *chosen* on one half of the conversations
(best mean of R@5..R@50) and *scored* on the other half, both ways.

    python -m benchmarks.session_time [--data PATH] [--corpus observations|turns]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.fusion import DEPTH, Lists, collect, recall, row
from benchmarks.locomo import DEFAULT_DATA
from benchmarks.locomo_data import KS, load
from eden_memory.domain.ranking import FusedHit, Fusion, FusionRule, FusionWeights, fuse, single
from eden_memory.domain.session_context import raise_by_session, session_bonuses
from eden_memory.domain.temporal import boost_in_time, time_named

Setting = tuple[float, float, float]  # session weight, time boost, day boost
NOW = datetime.now(UTC)  # relative times ("last week") name nothing in a 2023 dataset


def raised(hits: list[FusedHit], item: Lists, setting: Setting) -> list[FusedHit]:
    weight, month, day = setting
    out = raise_by_session(hits, session_bonuses(hits, item.sessions, weight))
    named = time_named(item.question.text, NOW)
    factor = 0.0 if named is None else day if named.day else month
    return boost_in_time(out, named, item.said, factor) if named and factor else out


def ranker(
    rule: FusionRule, setting: Setting, mode: str = "hybrid"
) -> Callable[[Lists], list[str]]:
    def rank(item: Lists) -> list[str]:
        if mode == "semantic":
            hits = single(item.semantic, rule.semantic_threshold, semantic=True)
        elif mode == "keyword":
            hits = single(item.keyword, rule.text_threshold, semantic=False)
        else:
            hits = fuse(item.semantic, item.keyword, rule)
        return [h.id for h in raised(hits, item, setting)][: max(KS)]

    return rank


def cross_validated(
    lists: Sequence[Lists], rule: FusionRule, grid: Sequence[Setting]
) -> tuple[dict[int, float], list[Setting]]:
    samples = sorted({i.question.sample for i in lists})
    halves = [set(samples[::2]), set(samples[1::2])]
    total: dict[int, float] = dict.fromkeys(KS, 0.0)
    chosen: list[Setting] = []
    for tune, test in ((halves[0], halves[1]), (halves[1], halves[0])):
        tune_lists = [i for i in lists if i.question.sample in tune]
        test_lists = [i for i in lists if i.question.sample in test]

        def score(setting: Setting, on: Sequence[Lists] = tune_lists) -> float:
            return statistics.fmean(recall(on, ranker(rule, setting)).values())

        best = max(grid, key=score)
        chosen.append(best)
        for k, value in recall(test_lists, ranker(rule, best)).items():
            total[k] += value * len(test_lists)
    return {k: total[k] / len(lists) for k in KS}, chosen


async def main_async(args: argparse.Namespace) -> None:
    samples = load(args.data)
    with tempfile.TemporaryDirectory(prefix="session-time-") as tmp:
        lists, sem_floor, text_floor = await collect(samples, Path(tmp), args.corpus)
    rule = FusionRule(Fusion.SCORE, FusionWeights(0.5, 0.5), 60, sem_floor, text_floor, 0.0)
    print(f"{len(lists)} questions, {args.corpus}, candidates {DEPTH} deep, floors on")
    print(f"{'configuration (session weight, time boost, day boost)':<44}", end="")
    print("".join(f"{'R@' + str(k):>8}" for k in KS))
    fixed: list[tuple[str, Setting]] = [
        ("no raise", (0.0, 0.0, 0.0)),
        ("time boost 0.25, dates not raised", (0.0, 0.25, 0.0)),
        ("+ day boost 2.0", (0.0, 0.25, 2.0)),
        ("+ session weight 0.3 (the defaults)", (0.3, 0.25, 2.0)),
        ("session weight 0.3 alone", (0.3, 0.0, 0.0)),
    ]
    for name, setting in fixed:
        print(row(f"hybrid, {name}", recall(lists, ranker(rule, setting))))
    for mode in ("semantic", "keyword"):
        for name, setting in (fixed[1], fixed[3]):
            print(row(f"{mode} only, {name}", recall(lists, ranker(rule, setting, mode))))
    grid = [
        (w, m, d)
        for w in (0.0, 0.1, 0.2, 0.3, 0.5, 0.75)
        for m in (0.0, 0.25, 0.5)
        for d in (0.0, 0.5, 1.0, 2.0)
    ]
    figures, chosen = cross_validated(lists, rule, grid)
    print(row("hybrid, all three chosen on the other half", figures, f"chosen {chosen}"))
    sessions = [(w, 0.25, 0.0) for w in (0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)]
    figures, chosen = cross_validated(lists, rule, sessions)
    print(row("hybrid, session weight chosen (time 0.25)", figures, f"chosen {chosen}"))
    days = [(0.0, 0.25, d) for d in (0.0, 0.25, 0.5, 1.0, 2.0)]
    figures, chosen = cross_validated(lists, rule, days)
    print(row("hybrid, day boost chosen (time 0.25)", figures, f"chosen {chosen}"))


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--corpus", choices=("observations", "turns"), default="observations")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
